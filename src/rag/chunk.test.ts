import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ChunkMeta } from './chunk.js';
import { syncChunks } from './sync.js';
import { chunkRows, openFixtureArchive } from './test-helpers.js';
import { approximateTokens, contentSentences, isSalutation, splitText, withoutSalutation } from './tokens.js';

describe('thread-aware chunks', () => {
  it('builds a summary, split detail chunks with headers and one merged question/answer chunk', async () => {
    const { engine } = await openFixtureArchive('budget-thread');
    const report = syncChunks(engine.archive.db, { targetTokens: 200, overlapTokens: 30 });
    expect(report.threads).toBe(1);
    const rows = chunkRows(engine);
    const kinds = rows.map((r) => r.kind);
    expect(kinds.filter((k) => k === 'summary')).toHaveLength(1);

    const summary = rows.find((r) => r.kind === 'summary')?.text ?? '';
    expect(summary).toMatch(/^Thread: Q3 logistics budget/);
    expect(summary).toContain('Opened by Anna Keller on 2024-06-03');
    // A writer whose signature names a role is introduced with it.
    expect(summary).toContain(
      'Latest, Marco Bianchi (Responsabile Logistica, Lagomaggiore Tessuti S.p.A.) on 2024-06-05',
    );
    expect(summary).toContain("abbiamo deciso per l'opzione B");

    const details = rows.filter((r) => r.kind === 'detail');
    const root = details.filter(
      (r) => (JSON.parse(r.meta) as ChunkMeta).messageIds[0] === 'budget-root-0603@harbor-freight.example',
    );
    // The 300-word opening message is split, every window under the target, with overlap.
    expect(root.length).toBeGreaterThanOrEqual(2);
    for (const r of root) {
      expect(r.tokens).toBeLessThanOrEqual(200);
      // Subject only: sender and date are the passage's fields; the salutation is left out.
      expect(r.text).toMatch(/^Subject: Q3 logistics budget[^\n]*\n\n(?!Hi Marco)/);
    }
    // The next window repeats the last sentence of the previous one.
    const lastSentence = (root[0]?.text ?? '').split(/(?<=[.!?])\s+/).slice(-1)[0] as string;
    expect(root[1]?.text).toContain(lastSentence);

    // The short question and its short answer are one chunk, neither has one of its own.
    const qa = details.filter((r) => r.text.includes('forklift lease, or is that on top?'));
    expect(qa).toHaveLength(1);
    expect(qa[0]?.text).toContain(
      'Reply from Anna Keller <anna.keller@harbor-freight.example> on 2024-06-03:\nIt includes the lease',
    );
    const qaMeta = JSON.parse(qa[0]?.meta ?? '{}') as ChunkMeta;
    expect(qaMeta.messageIds).toEqual([
      'budget-q-0603@lagomaggiore-tessuti.example',
      'budget-a-0603@harbor-freight.example',
    ]);
    expect(qaMeta.depth).toBe(1);
    expect(details.filter((r) => r.text.includes('It includes the lease'))).toHaveLength(1);
    // Quoted history never enters a chunk: the question's quote of option B stays out.
    expect(qa[0]?.text).not.toContain('> Option B');

    const decision = details.find((r) => r.text.includes('opzione B')) as (typeof details)[number];
    const decisionMeta = JSON.parse(decision.meta) as ChunkMeta;
    // The replied-to line quotes what the parent says, not its greeting ("Hi Marco, hi all,").
    expect(decision.text).toContain(
      'In reply to Anna Keller: "as promised in Friday\'s call, here are the three options for the Rotterdam hub budget',
    );
    // Its writer's role and organisation come from the signature; the card itself stays out.
    expect(decision.text).toContain(
      'From: Marco Bianchi, Responsabile Logistica, Lagomaggiore Tessuti S.p.A.\nIn reply to Anna Keller',
    );
    expect(decision.text).not.toContain('0323');
    expect(details.filter((r) => r.text.includes('\nFrom: '))).toHaveLength(1);
    expect(decisionMeta).toMatchObject({ inbox: 'work', language: 'it', depth: 1, hasAttachment: false });
    expect(decisionMeta.participants).toEqual([
      'anna.keller@harbor-freight.example',
      'logistics@harbor-freight.example',
      'marco.bianchi@lagomaggiore-tessuti.example',
    ]);
    expect(decisionMeta.dateFrom).toBe(Date.parse('2024-06-05T08:30:00Z'));

    // Every chunk waits for an embedding.
    const backlog = engine.archive.db.prepare('SELECT count(*) AS n FROM embedding_backlog').get() as {
      n: number;
    };
    expect(backlog.n).toBe(rows.length);
    engine.close();
  });

  it('keeps unchanged chunks, refreshes the summary when the thread grows, and drops a deleted message with its chunks', async () => {
    const { engine, folder } = await openFixtureArchive('budget-thread');
    const db = engine.archive.db;
    rmSync(join(folder, '04-decision.eml'));
    await engine.ingest([folder], { inbox: 'work', workers: 0 });
    syncChunks(db);
    const before = chunkRows(engine);
    expect(before.some((r) => r.text.includes('opzione B'))).toBe(false);
    db.prepare('DELETE FROM embedding_backlog').run();

    await engine.ingest([join(import.meta.dirname, '../../test/fixtures/rag/budget-thread')], {
      inbox: 'work',
      workers: 0,
    });
    syncChunks(db);
    const after = chunkRows(engine);
    const kept = before.filter((r) => r.kind === 'detail').map((r) => r.id);
    expect(after.filter((r) => kept.includes(r.id))).toHaveLength(kept.length);
    const queued = (
      db.prepare('SELECT chunk_id FROM embedding_backlog').all() as Array<{ chunk_id: number }>
    ).map((r) => r.chunk_id);
    const fresh = after
      .filter((r) => queued.includes(r.id))
      .map((r) => r.kind)
      .sort();
    expect(fresh).toEqual(['detail', 'summary']);

    // Deletion removes the message's chunks (and the summary drawing on it) in the store's transaction.
    const rowid = engine.getMessage('budget-a-0603@harbor-freight.example').rowid;
    db.transaction(() => {
      for (const hook of engine.archive.hooks) hook.onDelete?.(db, rowid);
    })();
    const left = chunkRows(engine);
    expect(left.some((r) => r.text.includes('It includes the lease'))).toBe(false);
    expect(left.some((r) => r.kind === 'summary')).toBe(false);
    engine.close();
  });
});

describe('splitText', () => {
  it('splits at paragraph, then sentence boundaries and never exceeds the target', () => {
    const paragraph =
      'The pallets from Genoa arrive on Monday. The third shift unloads them. Finance approved the lease.';
    const text = Array.from({ length: 6 }, () => paragraph).join('\n\n');
    const windows = splitText(text, 40, 10, approximateTokens);
    expect(windows.length).toBeGreaterThan(2);
    for (const w of windows) expect(approximateTokens.count(w)).toBeLessThanOrEqual(40);
    expect(splitText('', 40, 10, approximateTokens)).toEqual([]);
  });
});

describe('salutations', () => {
  it('recognises greetings and names-only openings in the languages we clean, not content', () => {
    for (const greeting of [
      'Hi Tom,',
      'Dear Marco,',
      'Luca, Laura,',
      'All,',
      'Hi everyone,',
      'Ciao Giulia,',
      'Sehr geehrte Frau Weber,',
      'Bonjour à tous,',
      'Estimado Juan:',
      'Здравствуйте, Ольга!',
    ])
      expect(isSalutation(greeting), greeting).toBe(true);
    for (const content of [
      'Option B.',
      'yes please,',
      'Got it, thanks.',
      'Hello Marco, our ledger shows INV-K-30577 still open.',
      'Elena Marchetti signed yesterday.',
    ])
      expect(isSalutation(content), content).toBe(false);
  });

  it('starts a text at its first real sentence', () => {
    expect(
      contentSentences('Hi Tom,\n\nLuca, Laura,\n\nElena signed yesterday. She joins on November 4.'),
    ).toEqual(['Elena signed yesterday.', 'She joins on November 4.']);
    expect(contentSentences('Dear Ravi,')).toEqual([]);
    expect(withoutSalutation('Hi Mike,\n\nyes please, send the 10,000 from Ohio.\n\nLaura')).toBe(
      'yes please, send the 10,000 from Ohio.\n\nLaura',
    );
    expect(withoutSalutation('Dear Ravi,')).toBe('Dear Ravi,');
  });
});
