/** Mutants of the ENV clauses: the envelope of 2.1, and the paths of section 4. */
import { answer, editBody, withoutOffset, envelopes } from './edits.ts';
import { apiRoutes } from './proxy.ts';
import type { Mutant } from './kinds.ts';
import { titleOf } from '../src/core/operations.ts';

export const envelopeMutants: Mutant[] = [
  {
    name: 'envelope-date-without-offset',
    clause: 'ENV-1',
    description: 'The envelope `date` carries no UTC offset.',
    transform: editBody(envelopes, (body) => typeof body.date === 'string' && (body.date = withoutOffset(body.date))),
  },
  {
    name: 'envelope-success-as-string',
    clause: 'ENV-1',
    description: '`success` is the string "true", not a boolean.',
    transform: editBody(envelopes, (body) => 'success' in body && (body.success = 'true')),
  },
  {
    name: 'checkout-without-apiVersion',
    clause: 'ENV-2',
    description: `${titleOf('createCheckout')} answers without \`apiVersion\`.`,
    transform: editBody(['createCheckout'], (body) => delete body.apiVersion),
  },
  {
    name: 'methods-list-without-apiVersion',
    clause: 'ENV-2',
    description: 'The stored-method list answers without `apiVersion`.',
    transform: editBody(['listMethods'], (body) => delete body.apiVersion),
  },
  {
    name: 'paths-only-under-v1',
    clause: 'ENV-4',
    disturbs: ['CHK-1', 'REF-1', 'REF-3', 'PML-1'],
    description: 'The four paths answer only under a `/v1` segment; without it, 404.',
    transform: {
      request(request) {
        if (apiRoutes.has(request.route)) return answer(404, { success: false, error: 'use /v1' });
        if (request.path.startsWith('/v1/')) request.path = request.path.slice(3);
      },
    },
  },
  {
    name: 'paths-redirect-to-v1',
    clause: 'ENV-4',
    description: 'The four paths answer only with a 308 to the same path under `/v1`, which serves them.',
    transform: {
      request(request, proxy) {
        if (apiRoutes.has(request.route)) {
          const query = request.query.toString();
          return { status: 308, headers: { location: `${proxy.origin}/v1${request.path}${query ? `?${query}` : ''}` }, json: undefined, text: '' };
        }
        if (request.path.startsWith('/v1/')) request.path = request.path.slice(3);
      },
    },
  },
];
