// Regenerates the bundled sample mailbox: sample/Maildir (Maildir++), sample/archive.mbox
// (Google Takeout style) and sample/manifest.json. Deterministic: the same code writes the same bytes.
// Usage: npx tsc -p tsconfig.build.json && node dist/bench/make-sample.js [outDir]

import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildSample, takeoutLabels, writeMaildir, writeMbox } from '../src/corpus/index.js';

const root = resolve(process.argv[2] ?? 'sample');
mkdirSync(root, { recursive: true });
rmSync(join(root, 'Maildir'), { recursive: true, force: true });
rmSync(join(root, 'archive.mbox'), { force: true });

const all = buildSample();
const inMaildir = all.filter((m) => m.where !== 'mbox');
const inMbox = all.filter((m) => m.where !== 'maildir').map((m) => ({ ...m, labels: takeoutLabels(m) }));
const maildir = await writeMaildir(join(root, 'Maildir'), inMaildir);
const mbox = await writeMbox(join(root, 'archive.mbox'), inMbox, { gmailLabels: true });

// Git drops empty directories, and a Maildir folder without cur/, new/ or tmp/ is not a Maildir:
// keep each empty one with a dotfile, which Maildir readers skip.
const folders = ['', ...readdirSync(join(root, 'Maildir')).filter((name) => name.startsWith('.'))];
for (const folder of folders) {
  for (const part of ['cur', 'new', 'tmp']) {
    const dir = join(root, 'Maildir', folder, part);
    if (readdirSync(dir).length === 0) writeFileSync(join(dir, '.gitkeep'), '');
  }
}

const manifest = all.map((m) => ({
  messageId: m.messageId,
  date: m.date.toISOString(),
  subject: m.subject,
  kind: m.kind,
  language: m.language,
  thread: m.threadKey,
  folder: m.folder,
  flags: m.flags,
  where: m.where,
  origin: m.origin,
}));
// One message per line: greppable, and diffs of a regenerated sample stay readable.
writeFileSync(join(root, 'manifest.json'), `[\n${manifest.map((m) => JSON.stringify(m)).join(',\n')}\n]\n`);

const count = (f: (m: (typeof all)[number]) => boolean): number => all.filter(f).length;
process.stdout.write(
  `sample: ${all.length} messages (${maildir.messages} in Maildir, ${mbox.messages} in archive.mbox, ${count((m) => m.where === 'both')} in both)\n` +
    `bytes: Maildir ${maildir.bytes}, mbox ${mbox.bytes}\n` +
    `hand-written: ${count((m) => m.origin === 'story')}, background: ${count((m) => m.origin === 'background')}\n`,
);
