import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';

export type Database = BetterSqlite3.Database;

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
  const db = new BetterSqlite3(path);
  if (path !== ':memory:') {
    db.pragma('journal_mode = WAL');
    // Durable against a killed process (the WAL is fsynced at checkpoints), which is what a sandbox needs.
    db.pragma('synchronous = NORMAL');
  }
  db.pragma('foreign_keys = ON');
  db.exec(schema);
  return db;
}
