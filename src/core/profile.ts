/** Target profiles: read, checked against the Profile type, and merged with --header. */
import { readFileSync } from 'node:fs';
import { secretsOf } from './evidence.ts';
import { packageRoot } from './package-root.ts';
import type { Profile } from './run-config.ts';
import { jsonFileReader } from './json-file.ts';

export class ProfileError extends Error {}

/** The profiles that ship with the project, by file name. */
export const builtInProfile = (file: 'sandbox.json' | 'prism.json') => new URL(`profiles/${file}`, packageRoot);

/** The profile's JSON Schema; schemas/generated/profile.ts holds the Profile type made from it. */
export const profileSchemaFile = new URL('profiles/profile.schema.json', packageRoot);
export const profileSchema = JSON.parse(readFileSync(profileSchemaFile, 'utf8')) as object;

export const loadProfile = jsonFileReader<Profile>('profile', profileSchema, ProfileError, 'profiles/profile.schema.json');

/** A value still holding the "<…>" placeholder of an example profile. */
const placeholder = /<[^>]+>/;

/**
 * The profile as the specs see it: a selector, customer or declinedCardNumber that still holds an
 * example profile's placeholder counts as absent (a check that needs it is skipped with the reason).
 */
export function withoutPlaceholders(profile: Profile): Profile {
  const filled = (value: string | undefined) => (value === undefined || placeholder.test(value) ? undefined : value);
  const selectors =
    profile.selectors &&
    Object.fromEntries(
      Object.entries(profile.selectors).filter(
        ([, selector]) => !placeholder.test(typeof selector === 'string' ? selector : `${selector.frame} ${selector.field}`),
      ),
    );
  return {
    ...profile,
    ...(selectors && { selectors }),
    ...(profile.customers && { customers: profile.customers.filter((uuid) => !placeholder.test(uuid)) }),
    declinedCardNumber: filled(profile.declinedCardNumber),
  };
}

/**
 * The headers of the run: the profile's, with the --header ones over them (names compare
 * case-insensitively). No "<…>" placeholder of an example profile may be left, there or in the
 * notification secret.
 */
export function runHeaders(profile: Profile, extra: Record<string, string>): Record<string, string> {
  const overridden = new Set(Object.keys(extra).map((name) => name.toLowerCase()));
  const merged = Object.fromEntries(Object.entries(profile.headers).filter(([name]) => !overridden.has(name.toLowerCase())));
  Object.assign(merged, extra);
  for (const [name, value] of Object.entries(merged)) {
    if (placeholder.test(value)) {
      throw new ProfileError(`header ${name} still holds the profile's placeholder: fill it in or pass --header "${name}: …"`);
    }
  }
  if (profile.notificationSecret !== undefined && placeholder.test(profile.notificationSecret)) {
    throw new ProfileError(`the profile's notificationSecret still holds a placeholder: fill it in or remove it`);
  }
  return merged;
}

/** Everything of a run that must never reach a report: header values and the signature secret. */
export function secretsOfRun(headers: Record<string, string>, profile: Profile | null): string[] {
  return [...secretsOf(headers), ...(profile?.notificationSecret ? [profile.notificationSecret] : [])];
}
