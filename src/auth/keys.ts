// API keys for the HTTP and MCP surfaces: bearer tokens shown once, stored as sha256
// hashes, scoped to every inbox or to named ones, revocable by id or prefix.

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { MailsiftError } from '../core/errors.js';
import { type Db, sql } from '../store/index.js';

const KEY_PREFIX = 'msk_';
/** Characters of the key kept in clear (after `msk_`) so a person can tell keys apart. */
const VISIBLE_CHARS = 8;

export interface ApiKeyInfo {
  readonly id: string;
  readonly name: string | null;
  /** The first characters of the key, e.g. `msk_Ab12Cd34`: enough to recognise, useless to authenticate. */
  readonly prefix: string;
  /** Inbox names the key may read; null for every inbox. */
  readonly inboxes: readonly string[] | null;
  readonly createdAt: string;
  readonly revokedAt: string | null;
}

export interface CreatedKey extends ApiKeyInfo {
  /** The secret itself: returned once, never stored. */
  readonly key: string;
}

/** Who is calling: the key's id (or a fixed id when auth is off) and the inboxes it may read. */
export interface Principal {
  readonly keyId: string;
  readonly inboxes: readonly string[] | null;
}

interface KeyRow {
  id: string;
  name: string | null;
  prefix: string;
  hash: string;
  inboxes_json: string | null;
  created_at: number;
  revoked_at: number | null;
}

/** Creates the key table when missing; keys live beside the archive they open. */
export function ensureKeyTable(db: Db): void {
  db.exec(`CREATE TABLE IF NOT EXISTS api_keys (
    id TEXT PRIMARY KEY,
    name TEXT,
    prefix TEXT NOT NULL,
    hash TEXT NOT NULL UNIQUE,
    inboxes_json TEXT,
    created_at INTEGER NOT NULL,
    revoked_at INTEGER
  )`);
}

const hashKey = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

function toInfo(row: KeyRow): ApiKeyInfo {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    inboxes: row.inboxes_json === null ? null : (JSON.parse(row.inboxes_json) as string[]),
    createdAt: new Date(row.created_at).toISOString(),
    revokedAt: row.revoked_at === null ? null : new Date(row.revoked_at).toISOString(),
  };
}

export function createKey(db: Db, options: { inboxes?: readonly string[]; name?: string } = {}): CreatedKey {
  ensureKeyTable(db);
  const inboxes = options.inboxes && options.inboxes.length > 0 ? [...new Set(options.inboxes)].sort() : null;
  for (const name of inboxes ?? []) {
    if (!sql(db, 'SELECT 1 FROM inboxes WHERE name = ?').get(name)) {
      throw new MailsiftError('no_such_item', `no inbox named '${name}'`, { param: 'inbox' });
    }
  }
  const key = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  const row: KeyRow = {
    id: `key_${randomBytes(6).toString('hex')}`,
    name: options.name ?? null,
    prefix: key.slice(0, KEY_PREFIX.length + VISIBLE_CHARS),
    hash: hashKey(key),
    inboxes_json: inboxes === null ? null : JSON.stringify(inboxes),
    created_at: Date.now(),
    revoked_at: null,
  };
  sql(
    db,
    `INSERT INTO api_keys (id, name, prefix, hash, inboxes_json, created_at, revoked_at)
     VALUES (@id, @name, @prefix, @hash, @inboxes_json, @created_at, @revoked_at)`,
  ).run(row);
  return { ...toInfo(row), key };
}

export function listKeys(db: Db): ApiKeyInfo[] {
  ensureKeyTable(db);
  return (sql(db, 'SELECT * FROM api_keys ORDER BY created_at, rowid').all() as KeyRow[]).map(toInfo);
}

/** Revokes the key whose id or visible prefix is `idOrPrefix`; a prefix must name exactly one key. */
export function revokeKey(db: Db, idOrPrefix: string): ApiKeyInfo {
  ensureKeyTable(db);
  const wanted = idOrPrefix.trim();
  const rows = sql(db, 'SELECT * FROM api_keys WHERE id = ? OR prefix = ?').all(wanted, wanted) as KeyRow[];
  if (rows.length === 0)
    throw new MailsiftError('no_such_item', `no API key with id or prefix '${wanted}'`, { param: 'key' });
  if (rows.length > 1) {
    throw new MailsiftError(
      'invalid_argument',
      `prefix '${wanted}' matches ${rows.length} keys; revoke by id`,
      {
        param: 'key',
      },
    );
  }
  const row = rows[0] as KeyRow;
  if (row.revoked_at === null) {
    row.revoked_at = Date.now();
    sql(db, 'UPDATE api_keys SET revoked_at = ? WHERE id = ?').run(row.revoked_at, row.id);
  }
  return toInfo(row);
}

/** The principal of a live key, or null for an unknown, malformed or revoked key. */
export function authenticate(db: Db, key: string): Principal | null {
  if (!key.startsWith(KEY_PREFIX) || key.length > 128) return null;
  const hash = hashKey(key);
  const row = sql(db, 'SELECT * FROM api_keys WHERE hash = ?').get(hash) as KeyRow | undefined;
  // The lookup is by hash, so timing reveals nothing about the key; the explicit
  // constant-time comparison keeps that true if the lookup ever changes.
  if (!row || !timingSafeEqual(Buffer.from(row.hash, 'hex'), Buffer.from(hash, 'hex'))) return null;
  if (row.revoked_at !== null) return null;
  return { keyId: row.id, inboxes: toInfo(row).inboxes };
}

/** The principal of a live key by its id (a web session names its key by id), or null once revoked. */
export function principalOfKeyId(db: Db, keyId: string): Principal | null {
  const row = sql(db, 'SELECT * FROM api_keys WHERE id = ?').get(keyId) as KeyRow | undefined;
  if (!row || row.revoked_at !== null) return null;
  return { keyId: row.id, inboxes: toInfo(row).inboxes };
}
