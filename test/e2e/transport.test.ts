/**
 * The suite reaches a target as payment APIs are reached. A private CA, a server that requires a
 * client certificate, and a loopback CONNECT proxy, all made here: an API check and hosted-page
 * checks pass through them, and each wrong setting stops the run at the preflight with one line
 * naming the option to use.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { randomUUID } from 'node:crypto';
import { startObserver } from '../../src/observe/observer.ts';
import { directTransport } from '../../src/core/transport-options.ts';
import { cli, readReport, tempDir } from '../support/cli.ts';
import { makeCertificates, startConnectProxy, startTlsSandbox, type Certificates, type Closable } from '../support/tls-target.ts';

/** An API check (CHK-2 opens checkoutUrl too) and hosted-page checks (PAGE-2 on the receiver's merchant page, PAGE-3 paying in the browser). */
const throughTls = ['--grep', 'CHK-2|PAGE-2|PAGE-3', '--allow-partial', '--runs', '3'];
const passingClauses = ['CHK-2', 'PAGE-2', 'PAGE-3'];
const runMs = 240_000;
/** The preflight ends a wrong setting before Playwright starts. */
const preflightMs = 30_000;

let certificates: Certificates;
let target: Closable;

// Two at a time: a run here waits on its browser and its TLS target more than it computes, and the
// preflight tests are seconds each beside it.
describe('a target behind a private CA that requires a client certificate', { concurrency: 2 }, () => {
  let certificatesDir: string;
  before(async () => {
    certificatesDir = mkdtempSync(join(tmpdir(), 'transport-certs-'));
    certificates = makeCertificates(certificatesDir);
    target = await startTlsSandbox(certificates, 'required');
  });
  after(async () => {
    await target.close();
    rmSync(certificatesDir, { recursive: true, force: true });
  });

  const mutualTls = () => [
    '--ssl-extra-ca-certs',
    certificates.caCert,
    '--ssl-client-cert',
    certificates.clientCert,
    '--ssl-client-key',
    certificates.clientKey,
  ];

  function assertConformant(out: string, result: { code: number; stdout: string; stderr: string }) {
    const report = readReport(join(out, 'report.json'));
    for (const id of passingClauses) {
      const clause = report.clauses.find((candidate) => candidate.id === id)!;
      assert.equal(clause.status, 'passed', `${id}: ${JSON.stringify(clause.tests.map((test) => [test.title, test.status, test.reason]))}`);
    }
    assert.equal(report.verdict, 'conformant', result.stdout + result.stderr);
    assert.equal(result.code, 0);
    return report;
  }

  test('with the CA and the client certificate, the API and hosted-page checks pass through TLS', { timeout: runMs + 10_000 }, async (t) => {
    const out = tempDir(t, 'transport-tls-');
    const result = await cli(['run', '--base-url', target.url, ...mutualTls(), ...throughTls, '--out', out], { timeoutMs: runMs });
    const report = assertConformant(out, result);
    assert.ok(report.target.findings.some((finding) => finding.startsWith('transport: extra CA certificates')));
  });

  test('the same through an HTTP CONNECT proxy', { timeout: runMs + 10_000 }, async (t) => {
    const proxy = await startConnectProxy('tunnels');
    t.after(() => proxy.close());
    const out = tempDir(t, 'transport-proxy-');
    const result = await cli(['run', '--base-url', target.url, ...mutualTls(), '--proxy', proxy.url, ...throughTls, '--out', out], { timeoutMs: runMs });
    assertConformant(out, result);
    assert.ok(proxy.tunnels.some((tunnel) => tunnel.target === new URL(target.url).host));
  });

  test(
    "behind the private CA alone, through the proxy, Chromium accepts the target's certificate that the preflight verified",
    { timeout: runMs + 10_000 },
    async (t) => {
      const withoutClientCertificate = await startTlsSandbox(certificates, 'not asked');
      const proxy = await startConnectProxy('tunnels');
      t.after(async () => {
        await proxy.close();
        await withoutClientCertificate.close();
      });
      const out = tempDir(t, 'transport-ca-');
      const args = ['--ssl-extra-ca-certs', certificates.caCert, '--proxy', proxy.url, ...throughTls, '--out', out];
      const result = await cli(['run', '--base-url', withoutClientCertificate.url, ...args], { timeoutMs: runMs });
      assertConformant(out, result);
      const toTarget = proxy.tunnels.filter((tunnel) => tunnel.target === new URL(withoutClientCertificate.url).host);
      assert.ok(
        toTarget.some((tunnel) => /Chrome/.test(tunnel.userAgent)),
        `Chromium's own requests go through the proxy: ${JSON.stringify(toTarget)}`,
      );
    },
  );

  test('observe forwards to the upstream over its TLS, and names what is missing in its 502', async () => {
    const forwardTo = async (transport: typeof directTransport) => {
      const observer = await startObserver({ upstream: target.url, allowPartial: true, transport });
      const answer = await fetch(`${observer.url}/payments/${randomUUID()}`);
      const body = await answer.text();
      await observer.stop();
      return { status: answer.status, body };
    };
    const mutual = {
      ...directTransport,
      extraCaCertsFile: certificates.caCert,
      clientCertFile: certificates.clientCert,
      clientKeyFile: certificates.clientKey,
    };
    assert.equal((await forwardTo(mutual)).status, 404);
    const withoutClientCertificate = await forwardTo({ ...directTransport, extraCaCertsFile: certificates.caCert });
    assert.equal(withoutClientCertificate.status, 502);
    assert.match(withoutClientCertificate.body, /give --ssl-client-cert FILE with --ssl-client-key FILE/);
  });

  async function stopsAtPreflight(t: { after(fn: () => void): void }, args: string[], reason: RegExp) {
    const out = tempDir(t, 'transport-wrong-');
    const result = await cli(['run', '--base-url', target.url, ...args, '--out', out], { timeoutMs: preflightMs });
    assert.equal(result.code, 2, result.stdout + result.stderr);
    const report = readReport(join(out, 'report.json'));
    assert.equal(report.verdict, 'incomplete');
    assert.match(report.reason ?? '', reason);
    assert.equal(report.summary.passed + report.summary.failed, 0);
  }

  test('without the CA: the certificate is not trusted, and the option to use is named', async (t) => {
    await stopsAtPreflight(
      t,
      ['--ssl-client-cert', certificates.clientCert, '--ssl-client-key', certificates.clientKey],
      /certificate is not trusted by the system's CAs \(\w+\): give its CA with --ssl-extra-ca-certs FILE/,
    );
  });

  test('without the client certificate: the connection was refused, and the options to use are named', async (t) => {
    await stopsAtPreflight(
      t,
      ['--ssl-extra-ca-certs', certificates.caCert],
      /closed the TLS connection without an answer .*: if it requires a client certificate, give --ssl-client-cert FILE with --ssl-client-key FILE/,
    );
  });

  test('a client certificate that cannot be read, or whose key is not its own, is named', async (t) => {
    await stopsAtPreflight(
      t,
      ['--ssl-extra-ca-certs', certificates.caCert, '--ssl-client-cert', '/nowhere/client.pem', '--ssl-client-key', certificates.clientKey],
      /--ssl-client-cert \/nowhere\/client\.pem cannot be read: ENOENT/,
    );
    await stopsAtPreflight(
      t,
      ['--ssl-extra-ca-certs', certificates.caCert, '--ssl-client-cert', certificates.clientCert, '--ssl-client-key', certificates.serverKey],
      /--ssl-client-key .* is not the key of --ssl-client-cert/,
    );
  });

  test('a proxy that refuses, or is not there, is named', async (t) => {
    const proxy = await startConnectProxy('refuses');
    t.after(() => proxy.close());
    await stopsAtPreflight(
      t,
      [...mutualTls(), '--proxy', proxy.url],
      /the proxy http:\/\/127\.0\.0\.1:\d+ refused to connect to the target \(it answered 403 to CONNECT\)/,
    );
    await stopsAtPreflight(t, [...mutualTls(), '--proxy', 'http://127.0.0.1:1'], /the proxy http:\/\/127\.0\.0\.1:1 is unreachable \(.*ECONNREFUSED/);
  });
});
