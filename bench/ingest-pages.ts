// npm run bench:pages — which b-trees an ingest writes, in pages: ingests the bench's
// generated Maildir (20,000 messages by default; --messages N or BENCH_MESSAGES), or the mail
// at --source PATH, into a fresh archive, or into the archive given with --into FILE (it is
// changed: pass a copy, e.g. of the search bench's 1M archive, where the random-keyed b-trees
// outgrow every cache, and a source of messages it does not hold: the bench's own Maildir
// shares its Message-IDs and would be stored as variants). A reader holds a snapshot from
// before the ingest, so no checkpoint moves a frame out of the WAL; the WAL's distinct pages
// are then counted by the b-tree that owns them (dbstat). Every such page is written twice
// (WAL, then the checkpoint).

import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Mailsift } from '../src/engine.js';
import { benchMaildir, cpuReference, numberArg, removeArchive } from './measure.js';

const messages = numberArg('messages', 'BENCH_MESSAGES', 20_000);
const root = join(process.cwd(), '.bench');
/** `--name value` from argv. */
function pathArg(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}
const into = pathArg('into');
const source = pathArg('source');
const SHOWN = 20;
const WAL_HEADER = 32;
const FRAME_HEADER = 24;

/** The WAL's page size and the page numbers of its frames from byte `from` on. */
function walPages(wal: string, from: number): { pageSize: number; pages: Set<number> } {
  const fd = openSync(wal, 'r');
  try {
    const header = Buffer.alloc(WAL_HEADER);
    readSync(fd, header, 0, WAL_HEADER, 0);
    const pageSize = header.readUInt32BE(8);
    const frameSize = FRAME_HEADER + pageSize;
    const first = Math.max(0, Math.ceil((from - WAL_HEADER) / frameSize));
    const end = statSync(wal).size;
    const pages = new Set<number>();
    const frame = Buffer.alloc(FRAME_HEADER);
    for (let at = WAL_HEADER + first * frameSize; at + frameSize <= end; at += frameSize) {
      readSync(fd, frame, 0, FRAME_HEADER, at);
      pages.add(frame.readUInt32BE(0));
    }
    return { pageSize, pages };
  } finally {
    closeSync(fd);
  }
}

async function main(): Promise<void> {
  const corpus = source ?? (await benchMaildir(root, messages));
  const db = into ?? join(root, `pages-${messages}.db`);
  if (!into) removeArchive(db);
  const engine = Mailsift.open(db);
  const reader = new Database(db, { readonly: true });
  try {
    // The snapshot pins every frame written after it in the WAL until the reader ends.
    reader.exec('BEGIN');
    reader.prepare('SELECT count(*) FROM sqlite_schema').get();
    const wal = `${db}-wal`;
    const walStart = existsSync(wal) ? statSync(wal).size : 0;
    const started = Date.now();
    const report = await engine.ingest([corpus], { inbox: 'bench', extractAttachments: false });
    const added = report.added + report.variants;
    const elapsedS = (Date.now() - started) / 1000;
    const { pageSize, pages } = walPages(wal, walStart);
    reader.exec('COMMIT');
    const owners = new Map<string, number>();
    for (const { name, pageno } of engine.archive.db
      .prepare('SELECT name, pageno FROM dbstat')
      .iterate() as Iterable<{ name: string; pageno: number }>)
      if (pages.has(pageno)) owners.set(name, (owners.get(name) ?? 0) + 1);
    const owned = [...owners.values()].reduce((sum, n) => sum + n, 0);
    const rows = [...owners].sort((a, b) => b[1] - a[1]);
    const lines = [
      `mailsift ingest pages — ${added.toLocaleString('en')} messages stored in ${elapsedS.toFixed(1)} s` +
        (into ? ` into ${into}` : ' into a fresh archive'),
      `distinct pages written: ${pages.size.toLocaleString('en')} = ${(pages.size / Math.max(added, 1)).toFixed(2)} a message ` +
        `(${((pages.size * pageSize) / 1024 / Math.max(added, 1)).toFixed(0)} KB to the WAL, as much again at the checkpoint)`,
      ...rows.slice(0, SHOWN).map(([name, n]) => `${String(n).padStart(9)}  ${name}`),
      `${String(pages.size - owned).padStart(9)}  (free or reused since)`,
      `cpu reference: ${cpuReference()}`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    reader.close();
    engine.close();
  }
}

await main();
