import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Archive } from '../store/index.js';
import { openArchive } from '../store/index.js';
import { authenticate, createKey, ensureKeyTable, listKeys, revokeKey } from './index.js';

let archive: Archive;
beforeEach(() => {
  archive = openArchive(':memory:');
  archive.db.prepare("INSERT INTO inboxes (name, created_at) VALUES ('acme', 0), ('other', 0)").run();
});
afterEach(() => archive.close());

describe('API keys', () => {
  it('are shown once, stored only as a sha256 hash, and authenticate with their scope', () => {
    const created = createKey(archive.db, { inboxes: ['acme'], name: 'agent' });
    expect(created.key).toMatch(/^msk_[A-Za-z0-9_-]{43}$/);
    expect(created.prefix).toBe(created.key.slice(0, 12));
    const stored = archive.db.prepare('SELECT * FROM api_keys').all() as Array<Record<string, unknown>>;
    expect(JSON.stringify(stored)).not.toContain(created.key);
    expect(stored[0]?.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(authenticate(archive.db, created.key)).toEqual({ keyId: created.id, inboxes: ['acme'] });
    expect(authenticate(archive.db, `${created.key}x`)).toBeNull();
    expect(authenticate(archive.db, 'Bearer nonsense')).toBeNull();
    expect(createKey(archive.db).inboxes).toBeNull();
  });

  it('list without secrets and revoke by id or prefix', () => {
    const a = createKey(archive.db, { name: 'a' });
    const b = createKey(archive.db, { name: 'b', inboxes: ['other', 'acme', 'acme'] });
    const listed = listKeys(archive.db);
    expect(listed.map((k) => k.name)).toEqual(['a', 'b']);
    expect(listed[1]?.inboxes).toEqual(['acme', 'other']);
    expect(JSON.stringify(listed)).not.toContain(a.key);
    expect(listed.every((k) => !('key' in k) && !('hash' in k))).toBe(true);
    expect(revokeKey(archive.db, a.id).revokedAt).not.toBeNull();
    expect(revokeKey(archive.db, b.prefix).id).toBe(b.id);
    expect(authenticate(archive.db, a.key)).toBeNull();
    expect(authenticate(archive.db, b.key)).toBeNull();
    expect(() => revokeKey(archive.db, 'key_missing')).toThrow(
      expect.objectContaining({ code: 'no_such_item', param: 'key' }),
    );
  });

  it('refuse a scope naming an inbox that does not exist', () => {
    expect(() => createKey(archive.db, { inboxes: ['nowhere'] })).toThrow(
      expect.objectContaining({ code: 'no_such_item', param: 'inbox' }),
    );
  });

  it('create their table idempotently, beside an existing archive', () => {
    ensureKeyTable(archive.db);
    ensureKeyTable(archive.db);
    const other = new Database(':memory:');
    other.exec('CREATE TABLE inboxes (id INTEGER PRIMARY KEY, name TEXT)');
    ensureKeyTable(other);
    expect(listKeys(other)).toEqual([]);
    other.close();
  });
});
