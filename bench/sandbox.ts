/**
 * Benchmark of the reference sandbox (npm run bench:sandbox): checkout creation latency with 50
 * concurrent keep-alive connections on loopback, throughput, and the sandbox's peak memory over a
 * run of creations. The sandbox runs in its own process (a file database, as `npm run sandbox`),
 * so the load generator does not share its CPU. Prints each run, then the medians.
 *
 *   tsx bench/sandbox.ts [--runs 3] [--creations 100000] [--connections 50]
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' }, creations: { type: 'string', default: '100000' }, connections: { type: 'string', default: '50' } } });
const runs = Number(values.runs);
const creations = Number(values.creations);
const connections = Number(values.connections);

const body = JSON.stringify({
  payment: { amount: 500, code: 'BOOK_1', summary: 'Livro', customer: { uuid: 'e2343605-cf46-43de-b20b-9b7d1c95a9b2' }, paymentMethod: { code: 'CC', details: { allowRegistration: true } } },
  page: { language: 'PT', layout: 'basic' },
});

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

/** Peak resident memory of a process (Linux), in MB. */
function peakMemoryMb(pid: number): number {
  const match = /VmHWM:\s+([0-9]+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}

function createCheckout(agent: Agent, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const call = request({ host: '127.0.0.1', port, path: '/checkouts', method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (response) => {
      response.resume();
      response.on('end', () => (response.statusCode === 201 ? resolve(Number(process.hrtime.bigint() - started) / 1e6) : reject(new Error(`status ${response.statusCode}`))));
    });
    call.on('error', reject);
    call.end(body);
  });
}

async function oneRun(run: number) {
  const folder = mkdtempSync(join(tmpdir(), 'sandbox-bench-'));
  const bin = new URL('../bin/checkout-conformance.js', import.meta.url).pathname;
  const child = spawn(process.execPath, [bin, 'sandbox', '--port', '0', '--db', join(folder, 'bench.db')], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const [firstLine] = (await once(child.stdout!, 'data')) as [Buffer];
    const port = Number(/127\.0\.0\.1:([0-9]+)/.exec(firstLine.toString())![1]);
    const agent = new Agent({ keepAlive: true, maxSockets: connections });
    const latencies: number[] = [];
    let sent = 0;
    const started = process.hrtime.bigint();
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (sent < creations) {
          sent++;
          latencies.push(await createCheckout(agent, port));
        }
      }),
    );
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const result = { medianMs: median(latencies), p99Ms: latencies.sort((a, b) => a - b)[Math.floor(latencies.length * 0.99)], perSecond: creations / seconds, peakMb: peakMemoryMb(child.pid!) };
    agent.destroy();
    console.log(`run ${run}: median ${result.medianMs.toFixed(2)} ms, p99 ${result.p99Ms.toFixed(2)} ms, ${Math.round(result.perSecond)} creations/s, peak memory ${result.peakMb.toFixed(0)} MB`);
    return result;
  } finally {
    child.kill('SIGTERM');
    await once(child, 'exit');
    rmSync(folder, { recursive: true, force: true });
  }
}

console.log(`${runs} runs of ${creations} checkout creations, ${connections} concurrent connections on loopback`);
const results = [];
for (let run = 1; run <= runs; run++) results.push(await oneRun(run));
console.log(
  `median of runs: median latency ${median(results.map((r) => r.medianMs)).toFixed(2)} ms, ` +
    `${Math.round(median(results.map((r) => r.perSecond)))} creations/s, peak memory ${median(results.map((r) => r.peakMb)).toFixed(0)} MB`,
);
