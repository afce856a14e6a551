import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/** A prepared statement whose parameters and rows the caller names. */
export interface Statement<Params extends unknown[] = any[], Row = any> {
  run(...params: Params): { lastInsertRowid: number | bigint; changes: number | bigint };
  get(...params: Params): Row | undefined;
  all(...params: Params): Row[];
}

/** The sandbox's view of SQLite (node:sqlite): typed statements and nestable transactions. */
export interface Database {
  prepare<Params extends unknown[] = any[], Row = any>(sql: string): Statement<Params, Row>;
  exec(sql: string): void;
  /** Runs `work` in a transaction, or in a savepoint when one is already open: what throws is undone. */
  transaction<T>(work: () => T): T;
  readonly inTransaction: boolean;
  close(): void;
}

const schema = `
CREATE TABLE IF NOT EXISTS customers (
  uuid TEXT PRIMARY KEY,
  customer_id TEXT,
  created_at TEXT NOT NULL
);

-- Every checkout has a payment; a reference created by POST /payments/references is a payment alone.
CREATE TABLE IF NOT EXISTS payments (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  amount INTEGER NOT NULL,
  entity TEXT NOT NULL,
  reference TEXT NOT NULL CHECK (length(reference) = 9 AND reference NOT GLOB '*[^0-9]*'),
  state TEXT NOT NULL,
  state_created_at TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  valid_start TEXT NOT NULL,
  valid_end TEXT NOT NULL,
  valid_start_ms INTEGER NOT NULL,
  valid_end_ms INTEGER NOT NULL,
  available_methods TEXT NOT NULL,
  callback_url TEXT
);
CREATE INDEX IF NOT EXISTS payments_by_reference ON payments (reference);

-- References valid at the same time are distinct (REF-8): a reference may only be reused once
-- every earlier validity window that overlaps the new one has ended.
CREATE TRIGGER IF NOT EXISTS reference_unique_while_valid
BEFORE INSERT ON payments
WHEN EXISTS (
  SELECT 1 FROM payments
  WHERE reference = NEW.reference AND valid_start_ms <= NEW.valid_end_ms AND NEW.valid_start_ms <= valid_end_ms
)
BEGIN
  SELECT RAISE(ABORT, 'reference_in_use');
END;

CREATE TABLE IF NOT EXISTS checkouts (
  id TEXT PRIMARY KEY,
  payment_id INTEGER NOT NULL UNIQUE REFERENCES payments (id),
  state TEXT NOT NULL,
  created_at TEXT NOT NULL,
  layout TEXT,
  language TEXT,
  method_code TEXT,
  amount INTEGER NOT NULL,
  summary TEXT,
  customer_uuid TEXT,
  create_registration INTEGER NOT NULL,
  allow_registration INTEGER NOT NULL,
  action_url TEXT,
  request TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS stored_methods (
  uuid TEXT PRIMARY KEY,
  customer_uuid TEXT NOT NULL,
  type TEXT NOT NULL CHECK (type IN ('CC', 'MW')),
  details TEXT NOT NULL,
  checkout_id TEXT NOT NULL REFERENCES checkouts (id),
  created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS stored_methods_by_customer ON stored_methods (customer_uuid, created_at);

-- One row per notification (its id is webhook.id). The payment is captured as it was when
-- confirmed, so that every try sends the same body.
CREATE TABLE IF NOT EXISTS notifications (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  payment_id INTEGER NOT NULL REFERENCES payments (id),
  action TEXT NOT NULL,
  created_at TEXT NOT NULL,
  payment TEXT NOT NULL,
  url TEXT,
  tries_made INTEGER NOT NULL DEFAULT 0,
  next_try_at_ms INTEGER
);

CREATE TABLE IF NOT EXISTS notification_attempts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  notification_id INTEGER NOT NULL REFERENCES notifications (id),
  payment_id INTEGER NOT NULL,
  url TEXT,
  attempt INTEGER NOT NULL,
  status INTEGER,
  error TEXT,
  body TEXT NOT NULL,
  headers TEXT NOT NULL,
  sent_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS attempts_by_payment ON notification_attempts (payment_id);

CREATE TABLE IF NOT EXISTS settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
`;

/** Opens (creating where needed) the sandbox database: a file path, or ':memory:'. */
export function openDatabase(path: string): Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new DatabaseSync(path);
  if (path !== ':memory:') {
    db.exec('PRAGMA journal_mode = WAL');
    // Durable against a killed process (the WAL is fsynced at checkpoints), which is what a sandbox needs.
    db.exec('PRAGMA synchronous = NORMAL');
  }
  db.exec('PRAGMA foreign_keys = ON');
  db.exec(schema);
  return withTransactions(db);
}

function withTransactions(db: DatabaseSync): Database {
  let depth = 0;
  return {
    prepare(sql) {
      const statement = db.prepare(sql);
      // Rows are spread into named parameters whole; a field the statement does not name is ignored.
      statement.setAllowUnknownNamedParameters(true);
      return statement as unknown as Statement;
    },
    exec: (sql) => db.exec(sql),
    transaction(work) {
      const savepoint = `nested_${depth}`;
      db.exec(depth === 0 ? 'BEGIN' : `SAVEPOINT ${savepoint}`);
      depth++;
      try {
        const result = work();
        depth--;
        db.exec(depth === 0 ? 'COMMIT' : `RELEASE ${savepoint}`);
        return result;
      } catch (error) {
        depth--;
        db.exec(depth === 0 ? 'ROLLBACK' : `ROLLBACK TO ${savepoint}; RELEASE ${savepoint}`);
        throw error;
      }
    },
    get inTransaction() {
      return depth > 0;
    },
    close: () => db.close(),
  };
}
