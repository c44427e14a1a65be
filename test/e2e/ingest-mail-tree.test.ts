// `mailsift ingest` of a mail tree mixing Maildir folders, loose message files and mbox files:
// the files that are not mail are named per kind with a reason in its output (text and --json)
// and in `status`, never passed over silently.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeMixedTree, writeNotmuchLayout } from '../../src/source/test-helpers.js';
import { tempDir } from '../temp.js';
import { runCli } from './cli.js';

describe('mailsift ingest of a mixed mail tree (built CLI)', () => {
  it('prints the skipped files per kind, in its output and in status', () => {
    const dir = tempDir('mailsift-tree-cli-');
    const root = join(dir, 'Mail');
    writeMixedTree(root);
    const db = join(dir, 'a.db');
    const ingest = runCli(['ingest', root, '--no-embed', '--db', db]);
    expect(ingest.status).toBe(0);
    expect(ingest.stdout).toContain('16 scanned, 16 new');
    expect(ingest.stdout).toContain('skipped 23 file(s) that are not mail:\n');
    expect(ingest.stdout).toContain(
      `  6 dovecot: Dovecot index, cache, log, UID list and keyword files (e.g. ${root}/.Sent/dovecot-uidlist)\n`,
    );

    const again = JSON.parse(runCli(['ingest', root, '--no-embed', '--json', '--db', db]).stdout);
    expect(again).toMatchObject({ scanned: 16, unchanged: 16 });
    expect(again.skipped).toHaveLength(13);
    expect(again.skipped).toContainEqual({
      kind: 'not-mail',
      reason: "other files: neither RFC 5322 header fields nor an mbox 'From ' line at their start",
      count: 1,
      example: join(root, 'README.txt'),
    });

    const status = runCli(['status', '--db', db]).stdout;
    expect(status).toContain(`    maildir ${root} (last complete run`);
    expect(status).toContain(`        1 empty: empty files (e.g. ${join(root, 'Trash')})\n`);
    expect(status).toContain(
      'source_count: 16 seen at the source, 16 stored, 0 failed; skipped as not mail: 6 dovecot',
    );
    const json = JSON.parse(runCli(['status', '--json', '--db', db]).stdout);
    expect(json.perInbox[0].sources[0].skipped).toEqual(again.skipped);
    expect(json.health.inboxes[0].sources[0]).toMatchObject({ seenAtSource: 16, stored: 16, skipped: 23 });
  });

  it("stores all 53 messages of a tree laid out as notmuch's test corpus", () => {
    const dir = tempDir('mailsift-notmuch-cli-');
    writeNotmuchLayout(join(dir, 'corpus'));
    const db = join(dir, 'a.db');
    expect(runCli(['ingest', join(dir, 'corpus'), '--no-embed', '--db', db]).stdout).toContain(
      '53 scanned, 53 new',
    );
    expect(runCli(['status', '--db', db]).stdout).toContain(
      'source_count: 53 seen at the source, 53 stored, 0 failed',
    );
  });
});
