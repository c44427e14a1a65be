import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCorpus, writeMaildir } from '../corpus/index.js';
import { checkIndex, reindex } from '../index/index.js';
import type { Db } from '../store/index.js';
import { type ListPlan, listMessages } from './list.js';
import { type Sender, type SenderPlan, senderPlan } from './list-senders.js';
import { openTestArchive, openWriter, type TestArchive } from './test-helpers.js';

const PLANS: readonly SenderPlan[] = ['index', 'each', 'walk', 'collect'];
/** The reference: the `from` filter matched by FTS5 in the keyword index. */
const FTS: ListPlan = { from: 'index', identifiers: 'fts' };

let archive: TestArchive;
let maildir: string;
beforeAll(async () => {
  archive = await openTestArchive([]);
  maildir = join(archive.root, 'maildir');
  await writeMaildir(maildir, generateCorpus({ seed: 41, messages: 600 }));
  await archive.engine.ingest([maildir], { inbox: 'work', workers: 0 });
}, 60_000);
afterAll(() => archive.close());

/** Every page of a list, as message ids, its parts read as `plan` says. */
function allPages(db: Db, params: Record<string, unknown>, plan: ListPlan = {}): string[][] {
  const pages: string[][] = [];
  let token: string | null = null;
  do {
    const page = listMessages(db, { limit: 20, ...params, ...(token ? { pageToken: token } : {}) }, plan);
    pages.push(page.messages.map((m) => m.messageId));
    token = page.nextPageToken;
  } while (token !== null);
  return pages;
}

/** From-filter values as agents lift them: address prefixes, domain labels, names, odd forms. */
function senderQueries(db: Db): string[] {
  const rows = db
    .prepare('SELECT DISTINCT from_name, from_address FROM messages ORDER BY from_address LIMIT 8')
    .all() as Array<{ from_name: string; from_address: string }>;
  const queries = ['com', 'co', 'no-such-sender-zq', 'acme corp'];
  for (const { from_name, from_address } of rows) {
    const [local = '', domain = ''] = from_address.split('@');
    queries.push(
      `${local}@${domain.slice(0, Math.max(2, domain.length - 4))}`,
      domain.split('.')[0] ?? local,
    );
    if (from_name) queries.push(from_name, (from_name.split(' ')[0] as string).slice(0, 3));
  }
  return queries;
}

describe('list from filter plans', () => {
  it('page exactly as the keyword index does, for common, rare and many senders', () => {
    const db = archive.db;
    const variants: Array<Record<string, unknown>> = [
      {},
      { ascending: true, limit: 9, after: '2024-03-01' },
      { to: 'acme', hasAttachment: false, includeSpam: true },
    ];
    let nonEmpty = 0;
    for (const from of senderQueries(db)) {
      for (const variant of variants) {
        const expected = allPages(db, { from, ...variant }, FTS);
        if (expected.flat().length > 0) nonEmpty++;
        for (const plan of PLANS)
          expect(allPages(db, { from, ...variant }, { from: plan }), `${plan} ${from}`).toEqual(expected);
        expect(allPages(db, { from, ...variant })).toEqual(expected);
      }
    }
    expect(nonEmpty).toBeGreaterThan(40);
  });

  it('page recipients and subject filters on the postings exactly as FTS5 matches them', () => {
    const db = archive.db;
    const subjects = db.prepare('SELECT subject FROM messages ORDER BY id LIMIT 6').pluck().all() as string[];
    const filters: Array<Record<string, unknown>> = [
      { to: 'acme' },
      { to: 'no-such-recipient-zq' },
      { subject: 're' },
      { subject: 'zzqx' },
      { from: 'com', to: 'acme' },
      ...subjects.map((subject) => ({ subject: subject.split(' ').slice(0, 2).join(' ') })),
      ...subjects.map((subject) => ({ subject: (subject.split(' ').at(-1) as string).slice(0, 3) })),
    ];
    const variants: Array<Record<string, unknown>> = [
      {},
      { ascending: true, limit: 7, after: '2024-03-01' },
      { before: '2024-06-01', hasAttachment: false, includeSpam: true },
      { labels: ['seen'], limit: 3 },
      // Few of the first matches pass these: the page is filled from deeper ones.
      { labels: ['flagged'], limit: 2 },
      { hasAttachment: true, limit: 4 },
      { inbox: 'work' },
    ];
    let nonEmpty = 0;
    for (const filter of filters) {
      for (const variant of variants) {
        const expected = allPages(db, { ...filter, ...variant }, { identifiers: 'fts' });
        if (expected.flat().length > 0) nonEmpty++;
        expect(allPages(db, { ...filter, ...variant }), JSON.stringify(filter)).toEqual(expected);
      }
    }
    expect(nonEmpty).toBeGreaterThan(25);
  });

  it('page a label, common or rare, newest first', () => {
    const db = archive.db;
    const labels = db
      .prepare('SELECT label, count(*) AS n FROM message_labels GROUP BY label ORDER BY n')
      .all() as Array<{ label: string; n: number }>;
    // Rarer than 1 in 50 messages (read from the label) and commoner (read along the dates).
    expect(labels.some((l) => l.n * 50 < 600)).toBe(true);
    expect(labels.some((l) => l.n * 50 > 600)).toBe(true);
    const newest = db.prepare(
      `SELECT m.message_id FROM messages m JOIN message_labels l ON l.message_rowid = m.id AND l.label = ?
       WHERE NOT EXISTS (SELECT 1 FROM message_labels h WHERE h.message_rowid = m.id AND h.label IN ('trash', 'blocked'))
       ORDER BY m.date DESC, m.id DESC`,
    );
    for (const { label, n } of labels) {
      const expected = newest.pluck().all(label) as string[];
      const limit = n < 12 ? 1 : 25;
      expect(allPages(db, { labels: [label], includeSpam: true, limit }).flat(), label).toEqual(expected);
    }
  });

  it('page a thread from its own messages, with or without identifier filters', () => {
    const db = archive.db;
    const threads = db
      .prepare(
        'SELECT thread_id FROM messages GROUP BY thread_id HAVING count(*) >= 3 ORDER BY count(*) DESC LIMIT 5',
      )
      .pluck()
      .all() as string[];
    expect(threads.length).toBe(5);
    const members = db.prepare(
      `SELECT m.message_id FROM messages m WHERE m.thread_id = ?
         AND NOT EXISTS (SELECT 1 FROM message_labels h WHERE h.message_rowid = m.id AND h.label IN ('spam', 'trash', 'blocked'))
       ORDER BY m.date DESC, m.id DESC`,
    );
    for (const threadId of threads) {
      expect(allPages(db, { threadId, limit: 2 }).flat()).toEqual(members.pluck().all(threadId));
      for (const filter of [{ to: 'acme' }, { subject: 're' }, { from: 'com', to: 'a' }]) {
        const params = { threadId, limit: 1, ...filter };
        expect(allPages(db, params), JSON.stringify(params)).toEqual(
          allPages(db, params, { identifiers: 'fts' }),
        );
      }
    }
  });

  it('read few senders one by one, many common ones along the dates, many rare ones collected', () => {
    const senders = (count: number, messages: number): Sender[] =>
      Array.from({ length: count }, (_, i) => ({
        id: i + 1,
        inbox: 1,
        address: `a${i}@x.example`,
        name: '',
        messages,
      }));
    expect(senderPlan(senders(1, 300_000), 1_000_000)).toBe('each');
    expect(senderPlan(senders(16, 2), 1_000_000)).toBe('each');
    expect(senderPlan(senders(400, 100), 1_000_000)).toBe('walk');
    expect(senderPlan(senders(400, 10), 1_000_000)).toBe('collect');
  });

  it('follow deletions, re-ingest and senders another connection adds', async () => {
    const db = archive.db;
    const { from_address: address } = db
      .prepare(
        'SELECT from_address FROM messages GROUP BY from_address ORDER BY count(*), from_address LIMIT 1',
      )
      .get() as { from_address: string };
    const before = allPages(db, { from: address }, FTS);
    expect(before.flat().length).toBeGreaterThan(0);
    // Deleted from the store (locations too), then ingested again from the same maildir.
    for (const id of before.flat()) archive.deleteMessage(id);
    for (const plan of PLANS) expect(allPages(db, { from: address }, { from: plan })).toEqual([[]]);
    await archive.engine.ingest([maildir], { inbox: 'work', workers: 0 });
    for (const plan of PLANS) expect(allPages(db, { from: address }, { from: plan })).toEqual(before);
    // A sender first seen by another connection, after this one analysed the senders.
    const writer = openWriter(archive);
    await writer.add(['jose-facturas']);
    writer.close();
    const jose = allPages(db, { from: 'josé martinez' }, FTS);
    expect(jose).toEqual([['es-0301@ejemplo.es']]);
    for (const plan of PLANS) expect(allPages(db, { from: 'josé martinez' }, { from: plan })).toEqual(jose);
    expect(checkIndex(db).problems).toEqual([]);
  });

  it('are checked against the store and rebuilt by reindex', () => {
    const db = archive.db;
    db.prepare('UPDATE senders SET messages = messages + 1 WHERE id = (SELECT min(id) FROM senders)').run();
    expect(checkIndex(db).problems).toEqual([
      'senders table disagrees with messages for 1 sender(s): run reindex',
    ]);
    reindex(db);
    expect(checkIndex(db).problems).toEqual([]);
    expect(allPages(db, { from: 'com' })).toEqual(allPages(db, { from: 'com' }, FTS));
  });
});
