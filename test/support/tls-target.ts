/**
 * A target as payment APIs are reached: a private CA (made here with the openssl CLI), an HTTPS front
 * on 127.0.0.1 that requires a client certificate of that CA, in front of the in-memory sandbox, and
 * a loopback HTTP CONNECT proxy. Each closes completely.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest, type IncomingMessage } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { startSandbox } from '../../src/sandbox/index.ts';

export interface Certificates {
  caCert: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
}

const openssl = (dir: string, ...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });

/** P-256 keys: a CA, a server certificate for IP 127.0.0.1 and a client certificate, all signed by the CA, as PEM files in dir. */
export function makeCertificates(dir: string): Certificates {
  const ecKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  openssl(dir, 'req', '-x509', ...ecKey, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=checkout-conformance test CA');
  const issue = (name: string, subject: string, extensions: string) => {
    writeFileSync(join(dir, `${name}.ext`), extensions);
    openssl(dir, 'req', ...ecKey, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject);
    openssl(
      dir,
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-days',
      '2',
      '-out',
      `${name}.pem`,
      '-extfile',
      `${name}.ext`,
    );
  };
  issue('server', '/CN=127.0.0.1', 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  issue('client', '/CN=checkout-conformance client', 'extendedKeyUsage=clientAuth\n');
  return {
    caCert: join(dir, 'ca.pem'),
    serverCert: join(dir, 'server.pem'),
    serverKey: join(dir, 'server.key'),
    clientCert: join(dir, 'client.pem'),
    clientKey: join(dir, 'client.key'),
  };
}

export interface Closable {
  url: string;
  close(): Promise<void>;
}

function closeServer(server: { close(callback: () => void): void; closeAllConnections?(): void }): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections?.();
  });
}

/**
 * The in-memory sandbox behind HTTPS, requiring a client certificate of the CA or not. The sandbox
 * names its own plain address in bodies (checkoutUrl, the pages' links) and Location: the front
 * writes its own there, so that the browser too comes through TLS.
 */
export async function startTlsSandbox(certificates: Certificates, clientCertificate: 'required' | 'not asked'): Promise<Closable> {
  const sandbox = await startSandbox({ db: ':memory:' });
  let frontUrl = '';
  const front = createHttpsServer(
    {
      cert: readFileSync(certificates.serverCert),
      key: readFileSync(certificates.serverKey),
      ca: readFileSync(certificates.caCert),
      requestCert: clientCertificate === 'required',
      rejectUnauthorized: clientCertificate === 'required',
    },
    (incoming, outgoing) => {
      const upstream = httpRequest(`${sandbox.url}${incoming.url}`, { method: incoming.method, headers: incoming.headers }, (answer: IncomingMessage) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const body = Buffer.from(Buffer.concat(chunks).toString('utf8').replaceAll(sandbox.url, frontUrl));
          const headers = { ...answer.headers, 'content-length': String(body.length) };
          if (typeof headers.location === 'string') headers.location = headers.location.replaceAll(sandbox.url, frontUrl);
          delete headers['transfer-encoding'];
          outgoing.writeHead(answer.statusCode ?? 502, headers).end(body);
        });
      });
      upstream.on('error', () => outgoing.destroy());
      incoming.pipe(upstream);
    },
  );
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  frontUrl = `https://127.0.0.1:${(front.address() as AddressInfo).port}`;
  return {
    url: frontUrl,
    async close() {
      await closeServer(front);
      await sandbox.close();
    },
  };
}

export interface ConnectProxy extends Closable {
  /** The CONNECT requests it tunnelled: to which "host:port", from which User-Agent (Chromium names itself; Node sends none). */
  readonly tunnels: { target: string; userAgent: string }[];
}

/** An HTTP proxy on 127.0.0.1 that tunnels CONNECT to 127.0.0.1 only, or refuses every one with 403. */
export async function startConnectProxy(behaviour: 'tunnels' | 'refuses'): Promise<ConnectProxy> {
  const tunnels: { target: string; userAgent: string }[] = [];
  const sockets = new Set<Socket>();
  const proxy = createHttpServer((_request, response) => response.writeHead(405).end());
  proxy.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => {
    sockets.add(client);
    client.on('error', () => {});
    const [host, port] = (request.url ?? '').split(':');
    if (behaviour === 'refuses' || host !== '127.0.0.1') {
      client.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    tunnels.push({ target: request.url!, userAgent: request.headers['user-agent'] ?? '' });
    const server = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      server.write(head);
      server.pipe(client);
      client.pipe(server);
    });
    sockets.add(server);
    server.on('error', () => client.destroy());
    client.on('close', () => server.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    tunnels,
    async close() {
      for (const socket of sockets) socket.destroy();
      await closeServer(proxy);
    },
  };
}
