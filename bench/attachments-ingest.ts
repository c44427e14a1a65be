// node dist/bench/attachments-ingest.js [--messages N] — ingest with attachments: a generated
// Maildir where every fifth message carries its own ~200 KB PDF, ingested cold by the built
// CLI next to the same corpus without the PDFs; prints messages/s stored and searchable, then
// end to end once `mailsift extract` has drained the attachment text, CPU per message and peak RSS.

import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { extractInline } from '../src/attachments/extract.js';
import { DEFAULT_EXTRACTION_LIMITS } from '../src/attachments/index.js';
import { generateCorpus, type MailboxEntry, writeMaildir } from '../src/corpus/index.js';
import { typicalPdf } from './documents.js';
import { CLI_BIN, directorySize, loadAverages, mb, numberArg, removeArchive } from './measure.js';

const messages = numberArg('messages', 'BENCH_MESSAGES', 5000);
/** One message in PDF_EVERY carries a PDF: the 20% of the target. */
const PDF_EVERY = 5;
const PDF_BYTES = 200 * 1024;
const PDF_PAGES = 5;
const root = join(process.cwd(), '.bench', `attachments-ingest-${messages}`);

interface Report {
  scanned: number;
  added: number;
  duplicates: number;
  variants: number;
  failed: number;
  bytes: number;
  /** Storing and indexing; attachment extraction follows in `extraction`. */
  elapsedMs: number;
  extraction?: { attachments: number; elapsedMs: number };
}

interface Run extends Report {
  maxRssBytes: number;
  /** User + system CPU of the ingest process, all its threads. */
  cpuMs: number;
  /** The part of cpuMs spent by `mailsift extract`. */
  drainCpuMs: number;
}

const CONTENT_FIELD = /^(content-[\w-]+|mime-version):/i;

interface Part {
  readonly filename: string;
  readonly contentType: string;
  readonly content: Buffer;
}

/**
 * The message as multipart/mixed: its own content headers and body become the first part,
 * the attachment the second. Bytes are kept as they are (latin1 round-trips every octet).
 */
function withAttachment(message: Buffer, part: Part, n: number): Buffer {
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
  const boundary = `=_bench_part_${n}_=`;
  const head = [
    ...fields.filter((f) => !CONTENT_FIELD.test(f)),
    'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    ...fields.filter((f) => /^content-/i.test(f)),
    // The part's header block ends with an empty line, as the message's did.
    '',
    '',
  ].join(eol);
  const tail = [
    '',
    `--${boundary}`,
    `Content-Type: ${part.contentType}; name="${part.filename}"`,
    `Content-Disposition: attachment; filename="${part.filename}"`,
    'Content-Transfer-Encoding: base64',
    '',
    part.content.toString('base64').replace(/.{76}/g, `$&${eol}`),
    `--${boundary}--`,
    '',
  ].join(eol);
  return Buffer.concat([
    Buffer.from(head, 'latin1'),
    message.subarray(end + eol.length * 2),
    Buffer.from(tail, 'latin1'),
  ]);
}

/**
 * The corpus with every PDF_EVERY-th message carrying its own attachment: a PDF, or as many
 * random bytes labelled octet-stream, which extraction sniffs and skips (the cost of carrying
 * 200 KB through ingest without the cost of extracting it).
 */
async function* carriers(kind: 'pdf' | 'bin'): AsyncGenerator<MailboxEntry> {
  let n = 0;
  for (const message of generateCorpus({ seed: 42, messages })) {
    n++;
    if (n % PDF_EVERY !== 0) {
      yield message;
      continue;
    }
    const part: Part =
      kind === 'pdf'
        ? {
            filename: `contract-${n}.pdf`,
            contentType: 'application/pdf',
            content: await typicalPdf(PDF_PAGES, PDF_BYTES, n * 300),
          }
        : {
            filename: `scan-${n}.bin`,
            contentType: 'application/octet-stream',
            content: randomBytes(PDF_BYTES),
          };
    yield { ...message, bytes: withAttachment(message.bytes, part, n) };
  }
}

type Corpus = 'plain' | 'bin' | 'pdf';

async function prepare(corpus: Corpus): Promise<string> {
  const dir = join(root, corpus);
  if (existsSync(join(dir, 'cur'))) return dir;
  const started = Date.now();
  process.stdout.write(`generating ${corpus} corpus of ${messages.toLocaleString('en')} messages …\n`);
  await writeMaildir(dir, corpus === 'plain' ? generateCorpus({ seed: 42, messages }) : carriers(corpus));
  process.stdout.write(`  generated in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return dir;
}

/**
 * Runs the built CLI in its own process. GNU time gives its peak RSS (KB) and its CPU
 * seconds, which under a busy machine say more than the wall clock.
 */
function runCli<T>(args: readonly string[]): T & { maxRssBytes: number; cpuMs: number } {
  const run = spawnSync('/usr/bin/time', ['-f', '%M %U %S', process.execPath, CLI_BIN, ...args, '--json'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0)
    throw new Error(`mailsift ${args.join(' ')} exited with ${run.status}: ${run.stderr}`);
  const [rssKb, user, system] = (run.stderr.trim().split('\n').pop() ?? '').split(' ').map(Number);
  return {
    ...(JSON.parse(run.stdout) as T),
    maxRssBytes: (rssKb ?? Number.NaN) * 1024,
    cpuMs: ((user ?? Number.NaN) + (system ?? Number.NaN)) * 1000,
  };
}

/**
 * A cold ingest that stores and indexes, then the attachment drain as `mailsift extract` runs
 * it (its default extractor), each in its own process; CPU adds up, peak RSS is the larger.
 */
function ingest(dir: string, db: string): Run {
  removeArchive(db);
  const stored = runCli<Report>(['ingest', dir, '--db', db, '--inbox', 'bench', '--no-extract']);
  const drained = runCli<{ attachments: number; elapsedMs: number }>(['extract', '--db', db]);
  return {
    ...stored,
    extraction: { attachments: drained.attachments, elapsedMs: drained.elapsedMs },
    maxRssBytes: Math.max(stored.maxRssBytes, drained.maxRssBytes),
    cpuMs: stored.cpuMs + drained.cpuMs,
    drainCpuMs: drained.cpuMs,
  };
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

/** Documents shaped like the carriers' PDFs, for the per-PDF CPU figures. */
const samplePdfs = (): Promise<Buffer[]> =>
  Promise.all(Array.from({ length: 20 }, (_, i) => typicalPdf(PDF_PAGES, PDF_BYTES, i * 300)));

/** CPU per PDF of extraction alone (pdf.js, inline, warm). */
async function extractionCpuMs(pdfs: readonly Buffer[]): Promise<number> {
  const extract = (content: Buffer) =>
    extractInline(
      { filename: 'contract.pdf', contentType: 'application/pdf', content },
      DEFAULT_EXTRACTION_LIMITS,
    );
  for (const pdf of pdfs.slice(0, 5)) await extract(pdf);
  const started = process.cpuUsage();
  for (let round = 0; round < 3; round++) for (const pdf of pdfs) await extract(pdf);
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000 / (pdfs.length * 3);
}

/** CPU of this process's waited-for children: cutime + cstime of /proc/self/stat, in 10 ms ticks. */
function childrenCpuMs(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

/**
 * CPU per PDF of poppler's pdftotext spawned per file, the child's and this process's (whose
 * fork grows with its RSS); null where pdftotext is not on PATH. Measured to compare with
 * pdf.js, not used by mailsift.
 */
function pdftotextCpuMs(pdfs: readonly Buffer[]): number | null {
  const run = (pdf: Buffer) =>
    spawnSync('pdftotext', ['-q', '-enc', 'UTF-8', '-', '-'], { input: pdf, maxBuffer: 64 * 1024 * 1024 });
  if (run(pdfs[0] as Buffer).status !== 0) return null;
  const rounds = 3;
  const started = process.cpuUsage();
  const children = childrenCpuMs();
  for (let round = 0; round < rounds; round++) for (const pdf of pdfs) run(pdf);
  const used = process.cpuUsage(started);
  return ((used.user + used.system) / 1000 + childrenCpuMs() - children) / (pdfs.length * rounds);
}

async function main(): Promise<void> {
  if (!existsSync(CLI_BIN)) throw new Error(`no CLI build at ${CLI_BIN}: run npm run build first`);
  mkdirSync(root, { recursive: true });
  const corpora: Corpus[] = ['plain', 'bin', 'pdf'];
  const dirs = new Map<Corpus, string>();
  for (const corpus of corpora) dirs.set(corpus, await prepare(corpus));
  const runs = new Map<Corpus, Run>();
  for (const corpus of corpora)
    runs.set(corpus, ingest(dirs.get(corpus) as string, join(root, `${corpus}.db`)));
  const [plain, bin, pdf] = corpora.map((c) => runs.get(c) as Run) as [Run, Run, Run];
  const stored = extractions(join(root, 'pdf.db'));
  const pdfs = await samplePdfs();
  const perPdf = await extractionCpuMs(pdfs);
  const perPoppler = pdftotextCpuMs(pdfs);
  const cores = availableParallelism();
  const carriersCount = Math.floor(messages / PDF_EVERY);
  const rate = (r: Report): number => r.scanned / (r.elapsedMs / 1000);
  const extractingMs = (r: Report): number => r.extraction?.elapsedMs ?? 0;
  const endToEnd = (r: Report): number => r.scanned / ((r.elapsedMs + extractingMs(r)) / 1000);
  const line = (name: string, r: Run, corpus: Corpus): string =>
    `${name.padEnd(26)}stored+indexed ${(r.elapsedMs / 1000).toFixed(1)} s = ${Math.round(rate(r)).toLocaleString('en')} msg/s, ` +
    `+ extraction ${(extractingMs(r) / 1000).toFixed(1)} s = ${Math.round(endToEnd(r)).toLocaleString('en')} msg/s end to end · ` +
    `CPU ${(r.cpuMs / 1000).toFixed(1)} s = ${(r.cpuMs / r.scanned).toFixed(2)} ms/msg ` +
    `(storing ${((r.cpuMs - r.drainCpuMs) / r.scanned).toFixed(2)}) · ` +
    `peak RSS ${mb(r.maxRssBytes)} · Maildir ${mb(directorySize(dirs.get(corpus) as string))} (added ${r.added}, failed ${r.failed})`;
  const perCarrier = (more: Run, less: Run): string =>
    `+${((more.elapsedMs + extractingMs(more) - less.elapsedMs - extractingMs(less)) / carriersCount).toFixed(1)} ms wall, ` +
    `+${((more.cpuMs - less.cpuMs) / carriersCount).toFixed(1)} ms CPU per carrier`;
  const lines = [
    `mailsift attachment ingest — ${messages.toLocaleString('en')} generated messages, every ${PDF_EVERY}th carrying ` +
      `its own ${PDF_BYTES / 1024} KB attachment; ${cores} cores`,
    line('no attachments added:', plain, 'plain'),
    line('200 KB binary (skipped):', bin, 'bin'),
    line(`200 KB PDF (${PDF_PAGES} pages):`, pdf, 'pdf'),
    `carrying 200 KB:           ${perCarrier(bin, plain)} (parse, hash, store the raw bytes)`,
    `extracting the PDF:        ${perCarrier(pdf, bin)} (${stored.pdfs} PDF extractions stored, ${stored.ok} ok), ` +
      `of which the drain +${((pdf.drainCpuMs - bin.drainCpuMs) / carriersCount).toFixed(1)} ms CPU`,
    `pdf.js alone:              ${perPdf.toFixed(1)} ms CPU per PDF → at most ${Math.round((cores * 1000) / perPdf)} PDFs/s on ` +
      `${cores} cores = ${Math.round((cores * 1000 * PDF_EVERY) / perPdf).toLocaleString('en')} msg/s if nothing else ran`,
    `pdftotext, for comparison: ${perPoppler === null ? 'not on PATH' : `${perPoppler.toFixed(1)} ms CPU per PDF spawned (child and fork, from this ${mb(process.memoryUsage().rss)} process)`}`,
    `target ≥ 500 msg/s with PDFs: stored and searchable ${rate(pdf) >= 500 ? 'met' : 'NOT met'} ` +
      `(${Math.round(rate(pdf))} msg/s; attachment text follows at ` +
      `${Math.round(((pdf.extraction?.attachments ?? 0) * 1000) / Math.max(1, extractingMs(pdf)))} PDFs/s); ` +
      `end to end ${endToEnd(pdf) >= 500 ? 'met' : 'NOT met'} (${Math.round(endToEnd(pdf))} msg/s)`,
    `load at the end:           ${loadAverages()}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

await main();
