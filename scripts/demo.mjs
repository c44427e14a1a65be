// The README's main job: ingest the bundled sample mailbox into a fresh archive and
// show what mailsift makes of it (status, a thread, searches with highlights).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';

const cli = join(import.meta.dirname, '..', 'dist', 'cli', 'mailsift.js');
const sample = join(import.meta.dirname, '..', 'sample');
const scratch = process.env.MAILSIFT_DB ? undefined : mkdtempSync(join(tmpdir(), 'mailsift-demo-'));
const db = scratch ? join(scratch, 'demo.db') : process.env.MAILSIFT_DB;

if (scratch) {
  // The scratch archive goes however the demo ends: done, a failed step, or Ctrl-C. With a
  // handler, a signal no longer kills the process mid-step: it exits once the step returns.
  process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'])
    process.on(signal, () => process.exit(128 + constants.signals[signal]));
}

function run(title, args) {
  process.stdout.write(`\n$ mailsift ${args.join(' ')}\n`);
  const result = spawnSync(process.execPath, [cli, '--db', db, ...args], { stdio: 'inherit' });
  if (result.status !== 0) {
    process.stderr.write(`demo step failed: ${title}\n`);
    process.exit(result.status ?? 1);
  }
}

run('ingest', ['ingest', join(sample, 'Maildir'), join(sample, 'archive.mbox'), '--inbox', 'demo']);
run('status', ['status']);
run('identifier search', ['search', 'INV-4471', '--inbox', 'demo', '--limit', '3']);
run('address prefix search', ['search', 'stripe.com', '--inbox', 'demo', '--limit', '3']);
run('body search, by thread', [
  'search',
  'delivery schedule',
  '--inbox',
  'demo',
  '--threads',
  '--limit',
  '3',
]);
run('filtered list', ['list', '--from', 'github', '--inbox', 'demo', '--limit', '3']);
run('known questions', ['eval', join(sample, 'questions.yaml'), '--inbox', 'demo']);
process.stdout.write(
  scratch
    ? '\nthe demo archive was removed; set MAILSIFT_DB=demo.db to keep one\n'
    : `\narchive left at ${db}\n`,
);
