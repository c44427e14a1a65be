// Test support: the bundled sample mailbox ingested into inbox 'demo' of a fresh archive,
// as the eval and health tests use it.

import { cpSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tempDir } from '../../test/temp.js';
import { Mailsift } from '../engine.js';

export const SAMPLE = resolve(import.meta.dirname, '../../sample');
export const EVAL_FIXTURES = resolve(import.meta.dirname, '../../test/fixtures/eval');

export interface SampleArchive {
  readonly engine: Mailsift;
  readonly root: string;
  /** The Maildir the archive was ingested from (a private copy when `copy` was asked for). */
  readonly maildir: string;
  readonly sources: readonly string[];
}

/** Ingests the sample; `copy` ingests a private copy of the Maildir so a test may delete files. */
export async function openSampleArchive(options: { copy?: boolean } = {}): Promise<SampleArchive> {
  const root = tempDir('mailsift-eval-');
  const maildir = options.copy ? join(root, 'Maildir') : join(SAMPLE, 'Maildir');
  if (options.copy) cpSync(join(SAMPLE, 'Maildir'), maildir, { recursive: true });
  const sources = [maildir, join(SAMPLE, 'archive.mbox')];
  const engine = Mailsift.open(join(root, 'archive.db'));
  await engine.ingest(sources, { inbox: 'demo', workers: 0 });
  return { engine, root, maildir, sources };
}
