import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { linkMessage } from '../thread/linker.js';
import { openArchive } from './archive.js';
import { MessageStore } from './message-store.js';
import { MIGRATIONS } from './schema.js';
import { MERGE_REWRITES, SqliteThreadGraph } from './thread-graph.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('a thread merge', () => {
  it("finds each absorbed thread's rows through an index on the thread, never by reading the inbox", () => {
    const dir = mkdtempSync(join(tmpdir(), 'mailsift-merge-'));
    dirs.push(dir);
    const archive = openArchive(join(dir, 'archive.db'));
    try {
      for (const statement of MERGE_REWRITES) {
        const plan = archive.db
          .prepare(`EXPLAIN QUERY PLAN ${statement}`)
          .all('t-survivor', 1, 't-absorbed') as Array<{ detail: string }>;
        expect(plan.map((step) => step.detail)).toEqual([
          expect.stringMatching(
            /^SEARCH \w+ USING (COVERING )?INDEX \w+ \(inbox_id=\? AND (thread_id|new_id)=\?\)$/,
          ),
        ]);
      }
    } finally {
      archive.close();
    }
  });
});

describe('linking a message into the stored graph', () => {
  it('writes each node it changes once, and none it leaves as stored', () => {
    const archive = openArchive(':memory:');
    try {
      const inbox = new MessageStore(archive).inbox('work');
      const nodeWrites = (link: () => void): number => {
        const before = archive.db.prepare('SELECT total_changes() AS n').get() as { n: number };
        link();
        return (archive.db.prepare('SELECT total_changes() AS n').get() as { n: number }).n - before.n;
      };
      const link = (messageId: string, references: string[]): string =>
        linkMessage(new SqliteThreadGraph(archive.db, inbox.id, inbox.name), {
          messageId,
          references,
          threadKeys: [],
        });
      // Two placeholders and the reply: put five times while linking (each placeholder, the
      // reply, then the second placeholder and the reply again with their parents).
      let thread = '';
      expect(nodeWrites(() => (thread = link('c@x', ['a@x', 'b@x'])))).toBe(3);
      const rows = archive.db
        .prepare('SELECT message_id, parent_id, present FROM thread_nodes ORDER BY message_id')
        .all();
      expect(rows).toEqual([
        { message_id: 'a@x', parent_id: null, present: 0 },
        { message_id: 'b@x', parent_id: 'a@x', present: 0 },
        { message_id: 'c@x', parent_id: 'b@x', present: 1 },
      ]);
      // The placeholder arrives: only its own node changes.
      expect(nodeWrites(() => expect(link('b@x', ['a@x'])).toBe(thread))).toBe(1);
      // Linked again with what the graph already holds: nothing to write.
      expect(nodeWrites(() => link('b@x', ['a@x']))).toBe(0);
    } finally {
      archive.close();
    }
  });
});

describe('an archive made before thread nodes had row ids (schema 6)', () => {
  it('keeps every node through the migration and links new messages onto them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mailsift-nodes-'));
    dirs.push(dir);
    const path = join(dir, 'archive.db');
    const old = new Database(path);
    for (const migration of MIGRATIONS.slice(0, 6)) old.exec(migration);
    old.pragma('user_version = 6');
    old.prepare("INSERT INTO inboxes (id, name, created_at) VALUES (1, 'work', 0)").run();
    const node = old.prepare(
      'INSERT INTO thread_nodes (inbox_id, message_id, parent_id, thread_id, present) VALUES (1, ?, ?, ?, ?)',
    );
    node.run('root@x', null, 't-old', 0);
    node.run('reply@x', 'root@x', 't-old', 1);
    old.close();

    const archive = openArchive(path);
    try {
      const db = archive.db;
      expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
      const nodes = () =>
        db
          .prepare('SELECT message_id, parent_id, thread_id, present FROM thread_nodes ORDER BY message_id')
          .all();
      const rowidOf = (messageId: string): unknown =>
        db.prepare('SELECT id FROM thread_nodes WHERE message_id = ?').pluck().get(messageId);
      expect(nodes()).toEqual([
        { message_id: 'reply@x', parent_id: 'root@x', thread_id: 't-old', present: 1 },
        { message_id: 'root@x', parent_id: null, thread_id: 't-old', present: 0 },
      ]);
      const placeholder = rowidOf('root@x');
      // The placeholder's row is updated in place; a new reply's row is appended.
      const inbox = new MessageStore(archive).inbox('work');
      const link = (messageId: string, references: string[]): string =>
        linkMessage(new SqliteThreadGraph(db, inbox.id, inbox.name), {
          messageId,
          references,
          threadKeys: [],
        });
      expect(link('root@x', [])).toBe('t-old');
      expect(link('second@x', ['root@x', 'reply@x'])).toBe('t-old');
      expect(nodes()).toEqual([
        { message_id: 'reply@x', parent_id: 'root@x', thread_id: 't-old', present: 1 },
        { message_id: 'root@x', parent_id: null, thread_id: 't-old', present: 1 },
        { message_id: 'second@x', parent_id: 'reply@x', thread_id: 't-old', present: 1 },
      ]);
      expect(rowidOf('root@x')).toBe(placeholder);
      expect(db.prepare('SELECT max(id) FROM thread_nodes').pluck().get()).toBe(rowidOf('second@x'));
      // One node per Message-ID in an inbox, as the old primary key guaranteed.
      expect(() =>
        db
          .prepare(
            "INSERT INTO thread_nodes (inbox_id, message_id, parent_id, thread_id, present) VALUES (1, 'root@x', NULL, 't', 1)",
          )
          .run(),
      ).toThrow(/UNIQUE/);
    } finally {
      archive.close();
    }
  });
});
