import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

export const DATABASE_FILE = 'chat-adapter-local.sqlite';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS conversations (
  id TEXT PRIMARY KEY,
  property_id TEXT,
  org_id TEXT,
  session_id TEXT,
  contact_name TEXT,
  contact_phone TEXT,
  contact_email TEXT,
  last_intent TEXT,
  agent_handoff INTEGER,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
CREATE TABLE IF NOT EXISTS messages (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  conversation_id TEXT NOT NULL,
  property_id TEXT NOT NULL,
  org_id TEXT NOT NULL,
  session_id TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('USER', 'ASSISTANT')),
  content TEXT NOT NULL,
  trace_id TEXT NOT NULL,
  client_message_key TEXT NOT NULL,
  intent TEXT,
  sub_intent TEXT,
  retrieval_type TEXT,
  language TEXT,
  entry_id TEXT,
  created_at TEXT NOT NULL,
  UNIQUE (conversation_id, client_message_key)
) STRICT;
CREATE TABLE IF NOT EXISTS handoffs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  conversation_id TEXT NOT NULL,
  property_id TEXT NOT NULL,
  org_id TEXT NOT NULL,
  session_id TEXT NOT NULL,
  intent TEXT NOT NULL,
  sub_intent TEXT NOT NULL,
  message TEXT NOT NULL,
  contact_name TEXT,
  contact_phone TEXT,
  contact_email TEXT,
  trace_id TEXT NOT NULL,
  received_at TEXT NOT NULL,
  UNIQUE (conversation_id, trace_id, sub_intent, message)
) STRICT;
CREATE INDEX IF NOT EXISTS messages_by_conversation ON messages (conversation_id, id);
CREATE INDEX IF NOT EXISTS handoffs_by_conversation ON handoffs (conversation_id, id);
`;

/**
 * Opens (creating when missing) the local conversation store: one SQLite file under `dataDir`,
 * through Node's built-in node:sqlite (no native addon). WAL keeps readers and the writer apart;
 * synchronous=NORMAL is durable across process crashes in WAL mode.
 */
export function openDatabase(dataDir: string): DatabaseSync {
  mkdirSync(dataDir, { recursive: true });
  const db = new DatabaseSync(join(dataDir, DATABASE_FILE));
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;');
  db.exec(SCHEMA);
  return db;
}
