// npm run bench:cli — the CLI as an agent calls it in a loop: the wall time of whole processes
// (median of --runs runs, default 15, after a warm-up) of `--help`, `search <identifier>`,
// `search <two words>`, `list --from`, `show <id>` on an archive of --messages synthetic
// messages (default 100,000; built once under .bench/ and reused), beside an empty
// `node -e 0` timed in the same rounds and, when notmuch is installed, `notmuch search` /
// `notmuch show` on the same Maildir (its database built once too), and the identifier search
// through the unbundled modules (dist/src) to show what the bundle saves. Rounds interleave the
// commands, so a change in the machine's load falls on all of them alike.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Mailsift } from '../src/engine.js';
import type { Db } from '../src/store/index.js';
import {
  benchMaildir,
  CLI_BIN,
  CLI_UNBUNDLED,
  installed,
  loadAverages,
  numberArg,
  percentile,
  readyIndex,
  removeArchive,
} from './measure.js';

const messages = numberArg('messages', 'BENCH_MESSAGES', 100_000);
const runs = numberArg('runs', 'BENCH_RUNS', 15);
const WARM_UP = 2;
const root = join(process.cwd(), '.bench');
const dbPath = join(root, `cli-${messages}.db`);

interface Timed {
  readonly label: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
}

/** Runs `timed` once and returns its wall time in ms; a failing command ends the bench. */
function wallMs({ command, args, env }: Timed): number {
  const started = process.hrtime.bigint();
  const run = spawnSync(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: env ?? process.env });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (run.status !== 0)
    throw new Error(`${command} ${args.join(' ')} exited with ${run.status}: ${run.stderr.toString()}`);
  return ms;
}

/** The archive of the benches' Maildir, ingested once with the keyword index. */
async function archive(maildir: string): Promise<void> {
  if (existsSync(dbPath)) return;
  removeArchive(dbPath);
  const engine = Mailsift.open(dbPath);
  process.stdout.write(`ingesting ${maildir} into ${dbPath} …\n`);
  const report = await engine.ingest([maildir], { inbox: 'bench' });
  engine.close();
  process.stdout.write(
    `  ${report.added.toLocaleString('en')} messages in ${(report.elapsedMs / 1000).toFixed(0)} s\n`,
  );
}

interface Queries {
  readonly identifier: string;
  readonly twoWords: string;
  readonly sender: string;
  readonly messageId: string;
}

/** An identifier as the corpus writes them in subjects: INV-62271, PO-1234. */
const IDENTIFIER = /\b[A-Z]{2,}-\d{3,}\b/;

/**
 * Deterministic queries from the messages in the middle of the archive: the first identifier
 * of a subject (a few messages carry each), the first two words of a subject, the first
 * sender's local part, and that sender's message.
 */
function queries(db: Db): Queries {
  const rows = db
    .prepare(
      'SELECT message_id, from_address, subject FROM messages WHERE id >= (SELECT max(id) / 2 FROM messages) ORDER BY id LIMIT 200',
    )
    .all() as Array<{ message_id: string; from_address: string; subject: string }>;
  const identifier = rows.map((r) => IDENTIFIER.exec(r.subject)?.[0]).find((id) => id !== undefined);
  const twoWords = rows
    .map((r) => r.subject.split(/\s+/).filter((w) => /^\p{L}{4,}$/u.test(w)))
    .find((words) => words.length >= 2);
  const first = rows[0];
  if (!identifier || !twoWords || !first)
    throw new Error('the archive lacks an identifier or a subject of two words');
  return {
    identifier,
    twoWords: twoWords.slice(0, 2).join(' ').toLowerCase(),
    sender: first.from_address.split('@')[0] ?? first.from_address,
    messageId: first.message_id,
  };
}

/**
 * notmuch's database of the same Maildir (kept apart from it, under .bench/), built once;
 * null when notmuch is not installed.
 */
function notmuchConfig(maildir: string): string | null {
  if (!installed('notmuch')) return null;
  const dir = join(root, `notmuch-${messages}`);
  const config = join(dir, 'config');
  const built = join(dir, 'built');
  if (existsSync(built)) return config;
  mkdirSync(join(dir, 'db'), { recursive: true });
  writeFileSync(
    config,
    `[database]\npath=${join(dir, 'db')}\nmail_root=${maildir}\n[new]\ntags=\n[search]\nexclude_tags=\n[maildir]\nsynchronize_flags=false\n`,
  );
  process.stdout.write(`notmuch new over ${maildir} …\n`);
  const started = Date.now();
  const run = spawnSync('notmuch', ['new', '--quiet'], {
    stdio: 'inherit',
    env: { ...process.env, NOTMUCH_CONFIG: config },
  });
  if (run.status !== 0) throw new Error(`notmuch new exited with ${run.status}`);
  process.stdout.write(`  indexed in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  writeFileSync(built, '');
  return config;
}

function commands(q: Queries, config: string | null): Array<{ mailsift: Timed; notmuch?: Timed }> {
  const mailsift = (label: string, ...args: string[]): Timed => ({
    label: `mailsift ${label}`,
    command: process.execPath,
    args: [CLI_BIN, ...args, '--db', dbPath],
  });
  // The bin before scripts/bundle-cli.mjs: what the bundle saves at start-up.
  const unbundled = (label: string, ...args: string[]): Timed => ({
    label: `  unbundled (dist/src) ${label}`,
    command: process.execPath,
    args: [CLI_UNBUNDLED, ...args, '--db', dbPath],
  });
  const notmuch = (...args: string[]): Timed | undefined =>
    config === null
      ? undefined
      : {
          label: `notmuch ${args.join(' ')}`,
          command: 'notmuch',
          args,
          env: { ...process.env, NOTMUCH_CONFIG: config },
        };
  const [first = '', second = ''] = q.twoWords.split(' ');
  const pair = (m: Timed, n: Timed | undefined) => ({ mailsift: m, ...(n ? { notmuch: n } : {}) });
  return [
    pair(mailsift('--help', '--help'), undefined),
    pair(
      mailsift(`search ${q.identifier}`, 'search', q.identifier),
      notmuch('search', '--limit=10', q.identifier),
    ),
    pair(unbundled(`search ${q.identifier}`, 'search', q.identifier), undefined),
    pair(
      mailsift(`search '${q.twoWords}'`, 'search', q.twoWords),
      notmuch('search', '--limit=10', first, second),
    ),
    pair(
      mailsift(`list --from ${q.sender}`, 'list', '--from', q.sender),
      notmuch('search', '--limit=10', `from:${q.sender}`),
    ),
    pair(mailsift('show <id>', 'show', q.messageId), notmuch('show', `id:${q.messageId}`)),
  ];
}

async function main(): Promise<void> {
  const maildir = await benchMaildir(root, messages);
  await archive(maildir);
  const engine = Mailsift.open(dbPath);
  readyIndex(engine.archive.db);
  const q = queries(engine.archive.db);
  engine.close();
  const config = notmuchConfig(maildir);
  const rows = commands(q, config);
  const node: Timed = { label: 'node -e 0', command: process.execPath, args: ['-e', '0'] };
  const all = [node, ...rows.flatMap((r) => (r.notmuch ? [r.mailsift, r.notmuch] : [r.mailsift]))];
  const times = new Map<Timed, number[]>(all.map((t) => [t, []]));
  const loadBefore = loadAverages();
  for (let round = 0; round < WARM_UP + runs; round++)
    for (const timed of all) {
      const ms = wallMs(timed);
      if (round >= WARM_UP) times.get(timed)?.push(ms);
    }
  const median = (t: Timed): number =>
    percentile(
      [...(times.get(t) ?? [])].sort((a, b) => a - b),
      50,
    );
  const stats = (t: Timed): string => {
    const sorted = [...(times.get(t) ?? [])].sort((a, b) => a - b);
    const f = (v: number): string => v.toFixed(0).padStart(5);
    return `${f(percentile(sorted, 50))} ${f(percentile(sorted, 90))} ${f(sorted[0] ?? Number.NaN)}`;
  };
  const nodeMs = median(node);
  const lines = [
    `mailsift bench:cli — ${messages.toLocaleString('en')} messages, ${runs} runs after ${WARM_UP} warm-up rounds, node ${process.version}`,
    `load before ${loadBefore}, after ${loadAverages()}`,
    '',
    `${'process (ms)'.padEnd(44)}   p50   p90   min   × node -e 0`,
    `${node.label.padEnd(44)} ${stats(node)}`,
  ];
  for (const { mailsift, notmuch } of rows) {
    const ratio = (median(mailsift) / nodeMs).toFixed(2);
    lines.push(`${mailsift.label.slice(0, 44).padEnd(44)} ${stats(mailsift)}   ${ratio}×`);
    if (notmuch)
      lines.push(
        `${`  ${notmuch.label}`.slice(0, 44).padEnd(44)} ${stats(notmuch)}   (mailsift ${(median(mailsift) / median(notmuch)).toFixed(1)}× notmuch)`,
      );
  }
  if (!config) lines.push('', 'notmuch not installed');
  process.stdout.write(`${lines.join('\n')}\n`);
}

await main();
