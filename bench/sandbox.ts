/**
 * Benchmark of the reference sandbox (npm run bench:sandbox): checkout creation latency with 50
 * concurrent keep-alive connections on loopback, throughput, and the sandbox's memory over a run
 * of creations. The sandbox runs in its own process (a file database, as `npm run sandbox`); the
 * load comes from this process over raw sockets (one pre-built request, a minimal response
 * parser), so that the load generator takes as little of the machine as it can.
 *
 * Besides latency it prints what the machine was doing, since the figures mean little without
 * it: the sandbox's CPU time per creation (what a creation costs, whatever the contention), the
 * share of the run the sandbox was ready to run but waiting for a core, the load generator's CPU
 * time per creation, and how busy all cores were.
 *
 *   tsx bench/sandbox.ts [--runs 3] [--creations 100000] [--connections 50]
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { requestOf } from '../src/core/operations.ts';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '3' }, creations: { type: 'string', default: '100000' }, connections: { type: 'string', default: '50' } },
});
const runs = Number(values.runs);
const creations = Number(values.creations);
const connections = Number(values.connections);

const body = JSON.stringify({
  payment: {
    amount: 500,
    code: 'BOOK_1',
    summary: 'Livro',
    customer: { uuid: 'e2343605-cf46-43de-b20b-9b7d1c95a9b2' },
    paymentMethod: { code: 'CC', details: { allowRegistration: true } },
  },
  page: { language: 'PT', layout: 'basic' },
});
const creation = requestOf('createCheckout');
const creationRequest = Buffer.from(
  `${creation.method} ${creation.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
);

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

function procStatus(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const match = new RegExp(`${field}:\\s+([0-9]+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}

/** Nanoseconds a process has run on a core, and has been ready to run but waiting for one (Linux). */
function schedulerTimes(pid: number): { runningNs: number; waitingNs: number } {
  const [runningNs, waitingNs] = readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ').map(Number);
  return { runningNs, waitingNs };
}

/** Busy and total milliseconds of all cores since boot. */
function machineTimes(): { busyMs: number; totalMs: number } {
  return cpus().reduce(
    (sum, { times }) => {
      const total = times.user + times.nice + times.sys + times.idle + times.irq;
      return { busyMs: sum.busyMs + total - times.idle, totalMs: sum.totalMs + total };
    },
    { busyMs: 0, totalMs: 0 },
  );
}

/**
 * Sends creations over one keep-alive connection, one after another, while takeOne() allows;
 * records each latency in milliseconds. Any answer but 201 fails the run.
 */
async function createOverOneConnection(port: number, takeOne: () => boolean, latencies: number[]): Promise<void> {
  const socket = connect({ host: '127.0.0.1', port, noDelay: true });
  await once(socket, 'connect');
  return new Promise((resolve, reject) => {
    let received: Buffer = Buffer.alloc(0);
    let sentAt = 0n;
    const sendNext = () => {
      if (!takeOne()) {
        socket.end(resolve);
        return;
      }
      sentAt = process.hrtime.bigint();
      socket.write(creationRequest);
    };
    socket.on('data', (chunk: Buffer) => {
      received = received.length === 0 ? chunk : Buffer.concat([received, chunk]);
      const headEnd = received.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const head = received.toString('latin1', 0, headEnd);
      const length = Number(/\r\ncontent-length: *([0-9]+)/i.exec(head)?.[1] ?? NaN);
      if (received.length < headEnd + 4 + length) return;
      if (!head.startsWith('HTTP/1.1 201')) {
        socket.destroy();
        reject(new Error(`answer was not 201: ${received.toString()}`));
        return;
      }
      latencies.push(Number(process.hrtime.bigint() - sentAt) / 1e6);
      received = received.subarray(headEnd + 4 + length);
      sendNext();
    });
    socket.on('error', reject);
    sendNext();
  });
}

async function oneRun(run: number) {
  const folder = mkdtempSync(join(tmpdir(), 'sandbox-bench-'));
  const bin = new URL('../bin/checkout-conformance.js', import.meta.url).pathname;
  const child = spawn(process.execPath, [bin, 'sandbox', '--port', '0', '--db', join(folder, 'bench.db')], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const [firstLine] = (await once(child.stdout!, 'data')) as [Buffer];
    const port = Number(/127\.0\.0\.1:([0-9]+)/.exec(firstLine.toString())![1]);
    const pid = child.pid!;
    // Resident memory before the run and after each tenth of it: flat memory shows as a flat row.
    const rssMb = [procStatus(pid, 'VmRSS')];
    const tenth = Math.ceil(creations / 10);
    const latencies: number[] = [];
    let sent = 0;
    const takeOne = () => {
      if (sent > 0 && sent % tenth === 0) rssMb.push(procStatus(pid, 'VmRSS'));
      return sent++ < creations;
    };
    const sandboxBefore = schedulerTimes(pid);
    const generatorBefore = process.cpuUsage();
    const machineBefore = machineTimes();
    const started = process.hrtime.bigint();
    await Promise.all(Array.from({ length: connections }, () => createOverOneConnection(port, takeOne, latencies)));
    const elapsedNs = Number(process.hrtime.bigint() - started);
    const sandboxAfter = schedulerTimes(pid);
    const generator = process.cpuUsage(generatorBefore);
    const machineAfter = machineTimes();
    latencies.sort((a, b) => a - b);
    const result = {
      medianMs: latencies[Math.floor(latencies.length / 2)],
      p99Ms: latencies[Math.floor(latencies.length * 0.99)],
      perSecond: creations / (elapsedNs / 1e9),
      sandboxCpuUs: (sandboxAfter.runningNs - sandboxBefore.runningNs) / 1e3 / creations,
      sandboxWaitingShare: (sandboxAfter.waitingNs - sandboxBefore.waitingNs) / elapsedNs,
      generatorCpuUs: (generator.user + generator.system) / creations,
      machineBusyShare: (machineAfter.busyMs - machineBefore.busyMs) / (machineAfter.totalMs - machineBefore.totalMs),
      rssMb: [...rssMb, procStatus(pid, 'VmRSS')],
      peakMb: procStatus(pid, 'VmHWM'),
    };
    const percent = (share: number) => `${Math.round(share * 100)}%`;
    console.log(
      `run ${run}: median ${result.medianMs.toFixed(2)} ms, p99 ${result.p99Ms.toFixed(2)} ms, ${Math.round(result.perSecond)} creations/s; ` +
        `peak memory ${result.peakMb.toFixed(0)} MB\n` +
        `       resident memory (MB) before the run and after each tenth: ${result.rssMb.map((mb) => mb.toFixed(0)).join(' ')}\n` +
        `       sandbox ${result.sandboxCpuUs.toFixed(0)} µs CPU per creation, waiting for a core ${percent(result.sandboxWaitingShare)} of the run; ` +
        `load generator ${result.generatorCpuUs.toFixed(0)} µs CPU per creation; ` +
        `all ${cpus().length} cores ${percent(result.machineBusyShare)} busy, load average ${loadavg()[0].toFixed(1)}`,
    );
    return result;
  } finally {
    child.kill('SIGTERM');
    await once(child, 'exit');
    rmSync(folder, { recursive: true, force: true });
  }
}

console.log(`${runs} runs of ${creations} checkout creations, ${connections} concurrent connections on loopback`);
const results: Awaited<ReturnType<typeof oneRun>>[] = [];
for (let run = 1; run <= runs; run++) results.push(await oneRun(run));
const medianOf = (pick: (result: (typeof results)[number]) => number) => median(results.map(pick));
console.log(
  `median of runs: median latency ${medianOf((r) => r.medianMs).toFixed(2)} ms, p99 ${medianOf((r) => r.p99Ms).toFixed(2)} ms, ` +
    `${Math.round(medianOf((r) => r.perSecond))} creations/s, sandbox ${medianOf((r) => r.sandboxCpuUs).toFixed(0)} µs CPU per creation, ` +
    `peak memory ${medianOf((r) => r.peakMb).toFixed(0)} MB`,
);
