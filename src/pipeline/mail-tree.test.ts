// Ingest of mail trees that mix Maildir folders, loose message files and mbox files: every
// message stored in its folder, what is not mail counted per kind in the report and status,
// unchanged files skipped and deletions propagated like any source's.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Mailsift } from '../engine.js';
import { checkHealth, DEFAULT_THRESHOLDS } from '../health/index.js';
import {
  fixtureMessage,
  MIXED_TREE_MESSAGES,
  writeMixedTree,
  writeNotmuchLayout,
} from '../source/test-helpers.js';

const scratch = mkdtempSync(join(tmpdir(), 'mailsift-tree-ingest-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const opened: Mailsift[] = [];
afterEach(() => {
  for (const engine of opened.splice(0)) engine.close();
});

function freshArchive(): Mailsift {
  const engine = Mailsift.open(':memory:');
  opened.push(engine);
  return engine;
}

/** The source_count check of the archive's only source. */
function sourceCount(engine: Mailsift): string | undefined {
  const report = checkHealth(engine, DEFAULT_THRESHOLDS, new Date(), { consistency: false });
  return report.inboxes[0]?.sources[0]?.checks.find((c) => c.name === 'source_count')?.message;
}

describe('ingest of a mixed mail tree', () => {
  it('stores every message in its folder and reports what it skipped, per kind, in the report and status', async () => {
    const root = join(scratch, 'mixed');
    writeMixedTree(root);
    const engine = freshArchive();
    const report = await engine.ingest([root], { workers: 0 });
    expect(report).toMatchObject({ scanned: 16, added: 16, failed: 0, duplicates: 0 });
    for (const [index, [subject, folder]] of MIXED_TREE_MESSAGES.entries()) {
      const message = engine.getMessage(`m${index + 1}@tree.example`);
      expect([message.subject, message.folders]).toEqual([subject, [folder]]);
    }
    expect(engine.getMessage('m2@tree.example').labels).toEqual(
      expect.arrayContaining(['replied', 'flagged']),
    );

    const kinds = report.skipped.map((s) => [s.kind, s.count]);
    expect(kinds).toEqual([
      ['dovecot', 6],
      ['courier', 2],
      ['mbsync', 2],
      ['maildir-meta', 2],
      ['notmuch', 1],
      ['mu', 1],
      ['thunderbird-index', 1],
      ['editor-backup', 2],
      ['hidden', 2],
      ['maildir-tmp', 1],
      ['empty', 1],
      ['special', 1],
      ['not-mail', 1],
    ]);
    expect(report.skipped[0]?.example).toBe(join(root, '.Sent/dovecot-uidlist'));
    const [source] = engine.status().perInbox[0]?.sources ?? [];
    expect(source).toMatchObject({ kind: 'maildir', lastSeenCount: 16, skipped: report.skipped });
    expect(sourceCount(engine)).toBe(
      '16 seen at the source, 16 stored, 0 failed; skipped as not mail: 6 dovecot, 2 courier, 2 mbsync, ' +
        '2 maildir-meta, 1 notmuch, 1 mu, 1 thunderbird-index, 2 editor-backup, 2 hidden, 1 maildir-tmp, ' +
        '1 empty, 1 special, 1 not-mail',
    );
  });

  it('skips unchanged files on a re-run and propagates a loose file or mbox message that disappeared', async () => {
    const root = join(scratch, 'rerun');
    writeMixedTree(root);
    const engine = freshArchive();
    await engine.ingest([root], { workers: 0 });
    expect(await engine.ingest([root], { workers: 0 })).toMatchObject({
      scanned: 16,
      unchanged: 16,
      added: 0,
      deleted: 0,
    });
    rmSync(join(root, 'MH/inbox/2'));
    // The mbox loses its first message and keeps its second, whose key holds.
    writeFileSync(
      join(root, 'Archives/2019.mbox'),
      `From sender15@tree.example Mon Feb  5 10:15:00 2024\n${fixtureMessage(15, 'mbox two')}\n`,
    );
    const after = await engine.ingest([root], { workers: 0 });
    expect(after).toMatchObject({ scanned: 14, unchanged: 14, added: 0, deleted: 2 });
    expect(() => engine.getMessage('m12@tree.example')).toThrow();
    expect(() => engine.getMessage('m14@tree.example')).toThrow();
    expect(engine.getMessage('m15@tree.example').folders).toEqual(['Archives/2019']);
  });
});

describe("ingest of a tree laid out as notmuch's test corpus", () => {
  it('stores all 53 messages: the 10 loose files beside the maildirs too', async () => {
    const root = join(scratch, 'notmuch');
    writeNotmuchLayout(root);
    const engine = freshArchive();
    const report = await engine.ingest([root], { workers: 0 });
    expect(report).toMatchObject({ scanned: 53, added: 53, failed: 0, skipped: [] });
    expect(engine.status().messages).toBe(53);
    expect(sourceCount(engine)).toBe('53 seen at the source, 53 stored, 0 failed');
    expect(engine.getMessage('m5@tree.example').folders).toEqual(['bar/baz']);
    expect(engine.getMessage('m1@tree.example').folders).toEqual(['']);
  });
});
