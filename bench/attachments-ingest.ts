// node dist/bench/attachments-ingest.js [--messages N] — ingest with attachments: a generated
// Maildir where every fifth message carries its own ~200 KB PDF, ingested cold by the built
// CLI next to the same corpus without the PDFs; prints messages/s, PDFs/s and peak RSS.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { generateCorpus, type MailboxEntry, writeMaildir } from '../src/corpus/index.js';
import { typicalPdf } from './documents.js';
import { directorySize, mb, numberArg } from './measure.js';

const messages = numberArg('messages', 'BENCH_MESSAGES', 5000);
/** One message in PDF_EVERY carries a PDF: the 20% of the target. */
const PDF_EVERY = 5;
const PDF_BYTES = 200 * 1024;
const PDF_PAGES = 5;
const root = join(process.cwd(), '.bench', `attachments-ingest-${messages}`);
const cli = fileURLToPath(new URL('../src/surfaces/cli/main.js', import.meta.url));

interface Report {
  scanned: number;
  added: number;
  duplicates: number;
  variants: number;
  failed: number;
  bytes: number;
  elapsedMs: number;
}

const CONTENT_FIELD = /^(content-[\w-]+|mime-version):/i;

/**
 * The message as multipart/mixed: its own content headers and body become the first part,
 * the PDF the second. Bytes are kept as they are (latin1 round-trips every octet).
 */
function withPdf(message: Buffer, pdf: Buffer, n: number): Buffer {
  const crlf = message.indexOf('\r\n\r\n');
  const lf = message.indexOf('\n\n');
  const end = crlf >= 0 && (lf < 0 || crlf < lf) ? crlf : lf;
  const eol = end === crlf ? '\r\n' : '\n';
  const fields = message
    .subarray(0, end)
    .toString('latin1')
    .split(eol)
    .reduce<string[]>((all, row) => {
      if (/^[ \t]/.test(row) && all.length > 0) all[all.length - 1] += eol + row;
      else all.push(row);
      return all;
    }, []);
  const boundary = `=_bench_pdf_${n}_=`;
  const filename = `contract-${n}.pdf`;
  const head = [
    ...fields.filter((f) => !CONTENT_FIELD.test(f)),
    'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    ...fields.filter((f) => /^content-/i.test(f)),
    '',
  ].join(eol);
  const tail = [
    '',
    `--${boundary}`,
    `Content-Type: application/pdf; name="${filename}"`,
    `Content-Disposition: attachment; filename="${filename}"`,
    'Content-Transfer-Encoding: base64',
    '',
    pdf.toString('base64').replace(/.{76}/g, `$&${eol}`),
    `--${boundary}--`,
    '',
  ].join(eol);
  return Buffer.concat([
    Buffer.from(head, 'latin1'),
    message.subarray(end + eol.length * 2),
    Buffer.from(tail, 'latin1'),
  ]);
}

async function* carriers(): AsyncGenerator<MailboxEntry> {
  let n = 0;
  for (const message of generateCorpus({ seed: 42, messages })) {
    n++;
    if (n % PDF_EVERY !== 0) yield message;
    else
      yield { ...message, bytes: withPdf(message.bytes, await typicalPdf(PDF_PAGES, PDF_BYTES, n * 300), n) };
  }
}

async function prepare(): Promise<{ plain: string; pdf: string }> {
  const plain = join(root, 'plain');
  const pdf = join(root, 'pdf');
  if (!existsSync(join(plain, 'cur'))) await writeMaildir(plain, generateCorpus({ seed: 42, messages }));
  if (!existsSync(join(pdf, 'cur'))) {
    const started = Date.now();
    process.stdout.write(
      `generating ${messages.toLocaleString('en')} messages, every ${PDF_EVERY}th with a PDF …\n`,
    );
    await writeMaildir(pdf, carriers());
    process.stdout.write(`  generated in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  }
  return { plain, pdf };
}

/** A cold ingest by the built CLI in its own process; peak RSS from GNU time (KB). */
function ingest(dir: string, db: string): Report & { maxRssBytes: number } {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${db}${suffix}`, { force: true });
  const run = spawnSync(
    '/usr/bin/time',
    ['-f', '%M', process.execPath, cli, 'ingest', dir, '--db', db, '--inbox', 'bench', '--json'],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  if (run.status !== 0) throw new Error(`ingest of ${dir} exited with ${run.status}: ${run.stderr}`);
  const rssKb = Number(run.stderr.trim().split('\n').pop());
  return { ...(JSON.parse(run.stdout) as Report), maxRssBytes: rssKb * 1024 };
}

function extractions(db: string): { pdfs: number; ok: number; chars: number } {
  const handle = new Database(db, { readonly: true });
  const row = handle
    .prepare(
      `SELECT count(*) AS pdfs, sum(status = 'ok') AS ok, sum(length(text)) AS chars
       FROM attachment_texts WHERE format = 'pdf'`,
    )
    .get() as { pdfs: number; ok: number; chars: number };
  handle.close();
  return row;
}

async function main(): Promise<void> {
  if (!existsSync(cli)) throw new Error(`no CLI build at ${cli}: run npm run build first`);
  mkdirSync(root, { recursive: true });
  const dirs = await prepare();
  const plain = ingest(dirs.plain, join(root, 'plain.db'));
  const withPdfs = ingest(dirs.pdf, join(root, 'pdf.db'));
  const stored = extractions(join(root, 'pdf.db'));
  const rate = (r: Report): number => r.scanned / (r.elapsedMs / 1000);
  const carriersCount = Math.floor(messages / PDF_EVERY);
  const extraMs = withPdfs.elapsedMs - plain.elapsedMs;
  const line = (name: string, r: Report & { maxRssBytes: number }, dir: string): string =>
    `${name.padEnd(20)}${r.elapsedMs} ms · ${Math.round(rate(r)).toLocaleString('en')} msg/s · ` +
    `${(r.bytes / 1048576 / (r.elapsedMs / 1000)).toFixed(1)} MB/s · peak RSS ${mb(r.maxRssBytes)} · ` +
    `Maildir ${mb(directorySize(dir))} (added ${r.added}, failed ${r.failed})`;
  const lines = [
    `mailsift attachment ingest — ${messages.toLocaleString('en')} generated messages, ${carriersCount} with a distinct ${PDF_BYTES / 1024} KB PDF (${PDF_PAGES} pages of text + embedded binary)`,
    line('without PDFs:', plain, dirs.plain),
    line('with PDFs:', withPdfs, dirs.pdf),
    `PDF extractions:    ${stored.pdfs} stored, ${stored.ok} ok, ${Math.round(stored.chars / Math.max(1, stored.pdfs)).toLocaleString('en')} deflated text bytes each`,
    `PDF cost:           +${extraMs} ms = ${(extraMs / carriersCount).toFixed(1)} ms per PDF carrier ` +
      `(${Math.round(carriersCount / (extraMs / 1000)).toLocaleString('en')} PDFs/s marginal)`,
    `target ≥ 500 msg/s with PDFs: ${rate(withPdfs) >= 500 ? 'met' : 'NOT met'}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

await main();
