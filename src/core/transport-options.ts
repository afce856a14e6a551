/**
 * The transport's settings: what the command line and the environment say about reaching the target
 * (a private CA, a client certificate, --insecure, a proxy), and how they read in messages and
 * reports. The requests themselves go through src/core/transport.ts; this module loads none of its
 * network modules, so that a run parses its options and starts Playwright first.
 */
import type { ParseArgsConfig } from 'node:util';
import { httpUrl, UsageError } from './command-line.ts';

export interface Transport {
  /** PEM file of certificate authorities trusted besides the system's (--ssl-extra-ca-certs). */
  extraCaCertsFile: string | null;
  /** PEM client certificate and its key, for mutual TLS (--ssl-client-cert, --ssl-client-key). */
  clientCertFile: string | null;
  clientKeyFile: string | null;
  /** The target's certificate is not verified (--insecure). */
  insecure: boolean;
  /** The proxy of http: and of https: targets ('' none), and the hosts reached without one (NO_PROXY's syntax). */
  httpProxy: string;
  httpsProxy: string;
  noProxy: string;
}

export const directTransport: Transport = {
  extraCaCertsFile: null,
  clientCertFile: null,
  clientKeyFile: null,
  insecure: false,
  httpProxy: '',
  httpsProxy: '',
  noProxy: '',
};

export interface TransportOptions {
  extraCaCertsFile: string | null;
  clientCertFile: string | null;
  clientKeyFile: string | null;
  insecure: boolean;
  /** --proxy: for every target, whatever the environment says. */
  proxy: string | null;
}

/** The command-line options of the target's TLS, for parseArgs. */
export const tlsOptionTypes = {
  'ssl-extra-ca-certs': { type: 'string' },
  'ssl-client-cert': { type: 'string' },
  'ssl-client-key': { type: 'string' },
  insecure: { type: 'boolean' },
} as const satisfies ParseArgsConfig['options'];

/** The command-line options of the whole transport, for parseArgs. */
export const transportOptionTypes = { ...tlsOptionTypes, proxy: { type: 'string' } } as const satisfies ParseArgsConfig['options'];

/** The transport options as parsed: a client certificate goes with its key. */
export function parseTransportOptions(values: {
  'ssl-extra-ca-certs'?: string;
  'ssl-client-cert'?: string;
  'ssl-client-key'?: string;
  insecure?: boolean;
  proxy?: string;
}): TransportOptions {
  if ((values['ssl-client-cert'] === undefined) !== (values['ssl-client-key'] === undefined)) {
    throw new UsageError('--ssl-client-cert and --ssl-client-key go together');
  }
  return {
    extraCaCertsFile: values['ssl-extra-ca-certs'] ?? null,
    clientCertFile: values['ssl-client-cert'] ?? null,
    clientKeyFile: values['ssl-client-key'] ?? null,
    insecure: values.insecure ?? false,
    proxy: values.proxy === undefined ? null : httpUrl('--proxy', values.proxy),
  };
}

/** The options, with the environment's proxy variables (either case) where --proxy does not name one. */
export function resolveTransport(options: TransportOptions, env: NodeJS.ProcessEnv): Transport {
  const fromEnv = (name: string) => env[name.toLowerCase()] ?? env[name] ?? '';
  return {
    extraCaCertsFile: options.extraCaCertsFile,
    clientCertFile: options.clientCertFile,
    clientKeyFile: options.clientKeyFile,
    insecure: options.insecure,
    httpProxy: options.proxy ?? fromEnv('HTTP_PROXY'),
    httpsProxy: options.proxy ?? fromEnv('HTTPS_PROXY'),
    noProxy: options.proxy === null ? fromEnv('NO_PROXY') : '',
  };
}

/** One line for the console and the report: what the transport does beyond a direct, verified connection. */
export function describeTransport(transport: Transport, targetUrl: string): string | null {
  const parts = [
    transport.insecure && "INSECURE: the target's certificate is not verified (--insecure)",
    transport.extraCaCertsFile && `extra CA certificates ${transport.extraCaCertsFile}`,
    transport.clientCertFile && `client certificate ${transport.clientCertFile}`,
    proxyFor(targetUrl, transport) && `proxy ${shownProxy(proxyFor(targetUrl, transport)!)}`,
  ].filter(Boolean);
  return parts.length === 0 ? null : `transport: ${parts.join(', ')}`;
}

/** The proxy a request to url goes through, or null (none set, or NO_PROXY names its host). */
export function proxyFor(url: string, transport: Transport): string | null {
  const { protocol, hostname, port } = new URL(url);
  const proxy = protocol === 'https:' ? transport.httpsProxy || transport.httpProxy : transport.httpProxy;
  if (!proxy) return null;
  return bypassesProxy(hostname, port || (protocol === 'https:' ? '443' : '80'), transport.noProxy) ? null : proxy;
}

/** NO_PROXY as curl and undici read it: "*", hosts, ".domain" or "domain" suffixes, each with an optional port. */
function bypassesProxy(hostname: string, port: string, noProxy: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return noProxy
    .split(/[,\s]+/)
    .filter(Boolean)
    .some((entry) => {
      if (entry === '*') return true;
      const match = /^(.*?)(?::(\d+))?$/.exec(entry.toLowerCase().replace(/^\*/, ''))!;
      const name = match[1].replace(/^\[|\]$/g, '');
      if (match[2] && match[2] !== port) return false;
      return name.startsWith('.') ? host.endsWith(name) || host === name.slice(1) : host === name || host.endsWith(`.${name}`);
    });
}

/** A proxy's address for messages and reports: its credentials left out. */
export function shownProxy(proxy: string): string {
  const url = new URL(proxy);
  url.username = '';
  url.password = '';
  return url.href.replace(/\/$/, '');
}

/** The proxy credentials of a transport, to be masked wherever the run writes its config. */
export function transportSecrets(transport: Transport): string[] {
  return [transport.httpProxy, transport.httpsProxy]
    .filter(Boolean)
    .flatMap((proxy) => [decodeURIComponent(new URL(proxy).password)])
    .filter((secret) => secret.length > 0);
}

/** What the target asked of the suite's requests: how many answers asked them to wait (a 429, or a 503 with Retry-After), and how long they waited. */
export interface AskedToWait {
  answers: number;
  waitedMs: number;
}

/** One line for the console and the report: the run slowed down as the target asked; `where`: whose requests ("12 tests'"). */
export function describeAskedToWait({ answers, waitedMs }: AskedToWait, where: string): string {
  return `rate limit: the target asked ${where} requests to wait ${answers} times (429, or 503 with Retry-After), and they waited ${(waitedMs / 1000).toFixed(1)} s for it in all before sending them again: the run slowed down, and no such answer was judged`;
}
