import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLanguage, parseQuery } from '../analysis/index.js';
import { generateCorpus, writeMaildir } from '../corpus/index.js';
import { checkIndex, indexedLanguages, indexMessage, openPostings, reindex } from '../index/index.js';
import { exactMatch, type Match } from './match.js';
import { scoreHits, topMessagesByPostings, topThreadsByPostings } from './postings-rank.js';
import { rankMessages, topThreads } from './ranked-query.js';
import { FIXTURES, openTestArchive, rankContext, type TestArchive } from './test-helpers.js';

let archive: TestArchive;
beforeAll(async () => {
  archive = await openTestArchive();
  await archive.engine.ingest([`${FIXTURES}-ranking`], { inbox: 'work', workers: 0 });
});
afterAll(() => archive.close());

const match = (q: string): Match =>
  exactMatch(parseQuery(q, { languages: indexedLanguages(archive.db).filter(isLanguage) }));
const fts = (q: string): Match => ({ ...match(q), groups: null });

const ctx = rankContext({});

const QUERIES = [
  // Four groups first: a later one-group search must not take its leftover stamps for matches.
  'q3 budget decision options',
  'maria',
  'acme',
  'stripe',
  'budget',
  'q3 budget',
  're',
  'com',
  'invoice',
  'riunione',
  'счёт',
];

/** Phrases: identifier compounds (the last part by prefix), compounds and hyphenated words in text. */
const PHRASES = [
  'noreply@github',
  'billing@stripe',
  'INV-4471',
  'kick-off',
  'maria.rossi',
  // `trade*` expands to trade and traders, both in one subject and one Cc.
  'northwind-trade',
  'NT-7730',
];

const ranking = (m: Match) => rankMessages(archive.db, ctx, m, null, 1000);

describe('ranking by postings', () => {
  it('plans every query of whole tokens for postings, phrases included', () => {
    for (const q of ['budget review', 'noreply@github', 'INV-4471', 'kick-off'])
      expect(match(q).groups).not.toBeNull();
    expect(scoreHits(archive.db, ctx, match('noreply@github').groups ?? []).length).toBeGreaterThan(0);
  });

  it('match an identifier in text as written, never its parts spaced as words', () => {
    // The text says "oak veneer panels": two words, not the identifier oak.veneer.
    expect(ranking(match('oak veneer')).length).toBeGreaterThan(0);
    expect(ranking(match('oak.veneer'))).toEqual([]);
    expect(ranking(fts('oak.veneer'))).toEqual([]);
  });

  it("scores exactly as FTS5's bm25 while nothing was deleted", () => {
    // Ingest re-indexed the messages whose attachment text was extracted after storing:
    // FTS5 still counts their old rows. A rebuilt index has none.
    reindex(archive.db);
    let compared = 0;
    for (const q of [...QUERIES, ...PHRASES]) {
      const mine = ranking(match(q));
      const theirs = ranking(fts(q));
      if (PHRASES.includes(q)) expect(mine.length, q).toBeGreaterThan(0);
      expect(mine.map((r) => r.rowid)).toEqual(theirs.map((r) => r.rowid));
      mine.forEach((row, i) => {
        const other = (theirs[i] as { score: number }).score;
        expect(Math.abs(row.score - other)).toBeLessThanOrEqual(1e-12 * other);
      });
      compared += mine.length;
    }
    expect(compared).toBeGreaterThan(50);
  });

  it('counts only live documents after deletions and re-indexing, and never shows a dead one', () => {
    const before = ranking(match('budget'));
    const gone = before[0]?.rowid as number;
    const kept = before[1]?.rowid as number;
    const messageId = archive.db
      .prepare('SELECT message_id FROM messages WHERE id = ?')
      .pluck()
      .get(gone) as string;
    archive.deleteMessage(messageId);
    archive.db.transaction(() => indexMessage(archive.db, kept))();
    const view = openPostings(archive.db);
    const docs = archive.db
      .prepare('SELECT count(*) AS n, sum(tokens) AS tokens FROM keyword_docs')
      .get() as {
      n: number;
      tokens: number;
    };
    expect({ documents: view.documents, tokens: view.tokens }).toEqual({
      documents: docs.n,
      tokens: docs.tokens,
    });
    const after = ranking(match('budget'));
    expect(after.map((r) => r.rowid)).not.toContain(gone);
    expect(after.filter((r) => r.rowid === kept)).toHaveLength(1);
    expect(after).toHaveLength(before.length - 1);
    expect(checkIndex(archive.db)).toEqual({ ok: true, problems: [] });
  });

  it('merges small segments as they accumulate and ranks the same after', () => {
    const before = QUERIES.map((q) => ranking(match(q)).map((r) => [r.rowid, r.score]));
    const threads = topThreads(archive.db, ctx, match('budget'), 5).rows.map((r) => r.thread);
    const rowids = archive.db
      .prepare('SELECT rowid FROM keyword_docs ORDER BY rowid')
      .pluck()
      .all() as number[];
    // Each re-index outside an ingest writes a one-document segment.
    for (const rowid of rowids) archive.db.transaction(() => indexMessage(archive.db, rowid))();
    const sizes = archive.db
      .prepare('SELECT docs FROM keyword_segments ORDER BY docs')
      .pluck()
      .all() as number[];
    expect(sizes.length).toBeLessThan(16);
    expect(sizes.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(rowids.length);
    // Segments half dead are rewritten: tombstones never outnumber the live documents.
    expect(archive.db.prepare('SELECT count(*) FROM keyword_tombstones').pluck().get()).toBeLessThan(
      rowids.length / 2,
    );
    const afterMerge = QUERIES.map((q) => ranking(match(q)).map((r) => [r.rowid, r.score]));
    expect(afterMerge).toEqual(before);
    expect(topThreads(archive.db, ctx, match('budget'), 5).rows.map((r) => r.thread)).toEqual(threads);
    expect(checkIndex(archive.db)).toEqual({ ok: true, problems: [] });
  });

  it('never serves a cached segment whose transaction rolled back', async () => {
    const small = await openTestArchive(['stripe-receipt', 'budget-start']);
    try {
      const budget = small.rowidOf('budget-1@acme.io');
      const stripe = small.rowidOf('stripe-4471@mail.stripe.com');
      const rank = (q: string) => rankMessages(small.db, ctx, match(q), null, 10).map((r) => r.rowid);
      expect(() =>
        small.db.transaction(() => {
          indexMessage(small.db, budget);
          expect(rank('budget')).toEqual([budget]);
          throw new Error('crash before commit');
        })(),
      ).toThrow('crash before commit');
      // The next segment may take the rolled-back one's id.
      small.db.transaction(() => indexMessage(small.db, stripe))();
      expect(rank('budget')).toEqual([budget]);
      expect(rank('stripe')).toEqual([stripe]);
      expect(checkIndex(small.db)).toEqual({ ok: true, problems: [] });
    } finally {
      small.close();
    }
  });
});

describe('heads of broad queries', () => {
  // `acme`, `maria` and `the` are in half the messages' identifier or text columns or more:
  // bm25 floors those phrases' idf, and matches holding nothing else score next to nothing.
  const BROAD = ['acme', 'maria', 'the'];
  const db = () => archive.db;
  const full = (q: string, need: number) =>
    topMessagesByPostings(db(), () => scoreHits(db(), ctx, match(q).groups ?? []), need);
  const pruned = (q: string, need: number) =>
    topMessagesByPostings(db(), (keep) => scoreHits(db(), ctx, match(q).groups ?? [], keep), need);

  it('leave out the matches only common phrases reach, and rank the same head', () => {
    const floors = BROAD.map((q) => scoreHits(db(), ctx, match(q).groups ?? [], 2));
    expect(floors.some((hits) => hits.floor > 0)).toBe(true);
    floors.forEach((hits, i) => {
      const all = scoreHits(db(), ctx, match(BROAD[i] as string).groups ?? []);
      if (hits.floor > 0) expect(hits.length).toBeLessThan(all.length);
    });
    for (const q of BROAD)
      for (const need of [1, 3, 5]) expect(pruned(q, need), `${q} ${need}`).toEqual(full(q, need));
  });

  it('leave out the matches below the best `keep` seen, for messages and threads, and rank the same heads', () => {
    for (const q of ['budget', 'invoice', 'q3 budget', 're', 'com']) {
      const all = scoreHits(db(), ctx, match(q).groups ?? []);
      expect(all.length, q).toBeGreaterThan(3);
      const kept = scoreHits(db(), ctx, match(q).groups ?? [], 2);
      // At least two kept at or above the floor, every one left out below it.
      expect(kept.floor, q).toBeGreaterThan(0);
      expect(kept.length, q).toBeLessThan(all.length);
      expect(kept.scores.filter((score) => score >= kept.floor).length, q).toBeGreaterThanOrEqual(2);
      const keptRowids = new Set(kept.rowids);
      for (let h = 0; h < all.length; h++)
        if (!keptRowids.has(all.rowids[h] as number)) expect(all.scores[h], q).toBeLessThan(kept.floor);
      for (const need of [1, 2, 3]) {
        expect(pruned(q, need), `${q} ${need}`).toEqual(full(q, need));
        const threads = (keep: number | null) => scoreHits(db(), ctx, match(q).groups ?? [], keep);
        expect(topThreadsByPostings(db(), threads, need), `${q} ${need}`).toEqual(
          topThreadsByPostings(db(), () => threads(null), need),
        );
      }
    }
  });

  it('score in full when exclusion labels hide every match kept above the floor', () => {
    const kept = scoreHits(db(), ctx, match('acme').groups ?? [], 1);
    expect(kept.floor).toBeGreaterThan(0);
    const hidden: number[] = [];
    for (let h = 0; h < kept.length; h++)
      if ((kept.scores[h] as number) >= kept.floor) hidden.push(kept.rowids[h] as number);
    const label = db().prepare("INSERT INTO message_labels (message_rowid, label) VALUES (?, 'spam')");
    for (const rowid of hidden) label.run(rowid);
    try {
      const head = full('acme', 1);
      expect(head.rows).toHaveLength(1);
      expect(hidden).not.toContain(head.rows[0]?.rowid);
      expect(pruned('acme', 1)).toEqual(head);
    } finally {
      db()
        .prepare(
          "DELETE FROM message_labels WHERE label = 'spam' AND message_rowid IN (SELECT value FROM json_each(?))",
        )
        .run(JSON.stringify(hidden));
    }
  });
});

describe('thread heads', () => {
  it('stand each thread by its best message, as a plain walk down the whole order does', async () => {
    // Generated conversations: `acme` is in every message, a thread of them holding 1.6 on average,
    // so a deep head is read again past the messages of threads already taken.
    const generated = await openTestArchive([]);
    try {
      const maildir = join(generated.root, 'maildir');
      await writeMaildir(maildir, generateCorpus({ seed: 11, messages: 300 }));
      await generated.engine.ingest([maildir], { workers: 0, extractAttachments: false });
      const { db } = generated;
      const threadOf = db.prepare('SELECT inbox_id, thread_id, excluded FROM keyword_docs WHERE rowid = ?');
      const planned = (q: string) =>
        exactMatch(parseQuery(q, { languages: indexedLanguages(db).filter(isLanguage) })).groups ?? [];
      for (const q of ['acme', 'budget']) {
        const all = scoreHits(db, ctx, planned(q));
        const order = Array.from(all.rowids, (rowid, h) => ({ rowid, h })).sort(
          (a, b) =>
            (all.scores[b.h] as number) - (all.scores[a.h] as number) ||
            (all.dates[b.h] as number) - (all.dates[a.h] as number) ||
            b.rowid - a.rowid,
        );
        const walked: string[] = [];
        for (const { rowid } of order) {
          const row = threadOf.get(rowid) as { inbox_id: number; thread_id: string; excluded: number };
          const key = `${row.inbox_id}:${row.thread_id}`;
          if (!row.excluded && !walked.includes(key)) walked.push(key);
        }
        expect(order.length, q).toBeGreaterThan(walked.length * 1.4);
        for (const need of [1, 10, 50, walked.length - 1, walked.length]) {
          const { rows, more } = topThreadsByPostings(db, () => all, need);
          expect(
            rows.map((r) => r.thread),
            `${q} ${need}`,
          ).toEqual(walked.slice(0, need));
          expect(more, `${q} ${need}`).toBe(need < walked.length);
        }
      }
    } finally {
      generated.close();
    }
  });
});
