/**
 * The run's ledger: what every test's client created and read, every notification the run's
 * receivers took and when each receiver started and stopped listening, one JSON line each, in the
 * run's folder, for the final audit (./whole-run/audit.spec.ts). Requests are written without their
 * headers, and the run's secrets and full card numbers masked, as in every file of the run.
 */
import { appendFileSync, closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import type { LedgerEntry } from '../checks/audit.ts';
import type { SentRequest } from '../report/input-coverage.ts';
import { checkoutOf, isSuccess, paymentIdOf, type Exchange } from '../checks/index.ts';
import type { OperationName } from '../core/operations.ts';
import { mask, type RecordedRequest } from '../core/evidence.ts';
import { ledgerFile, sentFile } from '../report/folder.ts';

const withoutHeaders = (exchange: Exchange): Exchange => ({ ...exchange, request: { ...exchange.request, headers: {} } });

/** Writes down an exchange that created or read what the audit reads back: an accepted checkout or reference, a payment read, a list read, a confirmation taken. */
export function writeDown(dir: string, secrets: readonly string[], operation: OperationName, exchange: Exchange, param?: string): void {
  if (!isSuccess(exchange.response.status)) return;
  const paymentId = operation === 'createReference' ? paymentIdOf(exchange) : undefined;
  const entry: LedgerEntry | null =
    operation === 'createCheckout' && checkoutOf(exchange)
      ? { kind: 'checkout', exchange: withoutHeaders(exchange) }
      : paymentId
        ? { kind: 'reference', paymentId, requested: exchange.request.body as never, answeredAt: Date.now() }
        : operation === 'getPayment' && param
          ? { kind: 'payment read', paymentId: param, exchange: withoutHeaders(exchange) }
          : operation === 'listMethods' && param
            ? { kind: 'list read', customer: param, exchange: withoutHeaders(exchange) }
            : operation === 'confirmPayment' && param
              ? { kind: 'confirmation', paymentId: param, at: Date.now() }
              : null;
  if (entry) append(dir, entry, secrets);
}

/** Writes down a request the suite sent to an operation: its path parameter and body, masked, for the input coverage (src/report/input-coverage.ts). */
export function writeDownSent(dir: string, secrets: readonly string[], sent: SentRequest): void {
  appendFileSync(sentFile(dir), `${JSON.stringify(mask(sent, secrets))}\n`);
}

/** Writes down a request the receiver took at a notification address (a POST: pages and redirects are GETs), without its headers. */
export function writeDownNotification(dir: string, secrets: readonly string[], request: RecordedRequest): void {
  if (request.method !== 'POST') return;
  append(dir, { kind: 'notification', request: { ...request, headers: {} } }, secrets);
}

/** Writes down that a receiver of the run, in this worker, listens from now on. */
export function writeDownReceiverOpened(dir: string, url: string): void {
  append(dir, { kind: 'receiver opened', url, pid: process.pid, at: Date.now() }, []);
}

/** Writes down that a receiver of the run stops listening now. */
export function writeDownReceiverClosed(dir: string, url: string): void {
  append(dir, { kind: 'receiver closed', url, at: Date.now() }, []);
}

/** The entry masked as a value, not as its JSON text: a timestamp in milliseconds may read as a card number. */
function append(dir: string, entry: LedgerEntry, secrets: readonly string[]): void {
  appendFileSync(ledgerFile(dir), `${JSON.stringify(mask(entry, secrets))}\n`);
}

let lastRead: { file: string; size: number; entries: LedgerEntry[] } | null = null;

/** The ledger's entries: read again only where it grew, since the audit's tests each read the whole of it, in turn. */
export function readLedger(dir: string): readonly LedgerEntry[] {
  const file = ledgerFile(dir);
  if (!existsSync(file)) return [];
  const size = statSync(file).size;
  if (lastRead?.file !== file || lastRead.size !== size) lastRead = { file, size, entries: entriesOf(readFileSync(file, 'utf8')) };
  return lastRead.entries;
}

/** Follows the ledger from its end now: each call gives the entries written down since the one before. */
export function followLedger(dir: string): () => LedgerEntry[] {
  const file = ledgerFile(dir);
  const sizeOf = () => (existsSync(file) ? statSync(file).size : 0);
  let offset = sizeOf();
  return () => {
    const size = sizeOf();
    if (size <= offset) return [];
    const written = Buffer.alloc(size - offset);
    const fd = openSync(file, 'r');
    try {
      readSync(fd, written, 0, written.length, offset);
    } finally {
      closeSync(fd);
    }
    // A line still being written is read next time.
    const whole = written.lastIndexOf('\n') + 1;
    offset += whole;
    return entriesOf(written.subarray(0, whole).toString('utf8'));
  };
}

function entriesOf(text: string): LedgerEntry[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as LedgerEntry];
      } catch {
        return [];
      }
    });
}
