// npm run bench:attachments — extraction throughput (MB/s) per format on generated files,
// pooled PDF throughput against the ingest target (20% of messages carry a 200 KB PDF at
// 500 messages/s = 100 PDFs/s), and worst-case time on hostile files.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { extractInline } from '../src/attachments/extract.js';
import { makeDocx, makeOdf, makePdf, makePptx, makeXlsx, makeZip } from '../src/attachments/fixtures.js';
import { createExtractor, DEFAULT_EXTRACTION_LIMITS, type Extraction } from '../src/attachments/index.js';
import { denseTextPdf, line, lines, typicalPdf } from './documents.js';

const fixture = (name: string): Buffer =>
  readFileSync(fileURLToPath(new URL(`../../test/fixtures/attachments/${name}`, import.meta.url)));

interface Sample {
  name: string;
  filename: string;
  make(): Buffer | Promise<Buffer>;
}

/** Built one at a time, so one format's garbage does not slow the next one's timing. */
function samples(): Sample[] {
  const rtfBody = (): string =>
    lines(2500)
      .map((l) => `\\pard ${l.replace(/e/g, "\\'e9")}\\par`)
      .join('\n');
  return [
    { name: 'pdf 200KB 5 pg', filename: 'invoice.pdf', make: () => typicalPdf(5, 200 * 1024) },
    { name: 'pdf 200KB dense', filename: 'contract.pdf', make: () => denseTextPdf(200 * 1024) },
    { name: 'docx', filename: 'report.docx', make: () => makeDocx(lines(400)) },
    {
      name: 'xlsx',
      filename: 'prices.xlsx',
      make: () =>
        makeXlsx([
          {
            name: 'Prices',
            rows: Array.from({ length: 5000 }, (_, i) => [
              `item ${line(i).slice(0, 30)}`,
              i * 1.5,
              `SKU-${i}`,
            ]),
          },
        ]),
    },
    {
      name: 'pptx',
      filename: 'deck.pptx',
      make: () => makePptx(Array.from({ length: 100 }, (_, i) => lines(12, i * 12))),
    },
    {
      name: 'odt',
      filename: 'minutes.odt',
      make: () =>
        makeOdf(
          'application/vnd.oasis.opendocument.text',
          `<office:text>${lines(3000)
            .map((l) => `<text:p>${l}</text:p>`)
            .join('')}</office:text>`,
        ),
    },
    {
      name: 'rtf',
      filename: 'terms.rtf',
      make: () => Buffer.from(`{\\rtf1\\ansi\\ansicpg1252{\\fonttbl{\\f0 Arial;}}\n${rtfBody()}}`, 'latin1'),
    },
    {
      name: 'html',
      filename: 'page.html',
      make: () =>
        Buffer.from(
          `<html><body>${lines(3000)
            .map((l) => `<p>${l}</p>`)
            .join('')}</body></html>`,
        ),
    },
    {
      name: 'csv latin-1',
      filename: 'export.csv',
      make: () => Buffer.from(lines(10000).join(';ä\n'), 'latin1'),
    },
    { name: 'ics', filename: 'invite.ics', make: () => fixture('supplier-review.ics') },
    { name: 'message/rfc822', filename: 'fwd.eml', make: () => fixture('forwarded-delivery-dispute.eml') },
    {
      name: 'zip of 10 txt',
      filename: 'bundle.zip',
      make: () =>
        makeZip(Object.fromEntries(lines(10).map((l, i) => [`f${i}.txt`, lines(500, i).join('\n') + l]))),
    },
  ];
}

async function timeIt(
  run: () => Promise<unknown>,
  minMs = 1000,
  minRuns = 3,
): Promise<{ runs: number; msPerRun: number }> {
  await run();
  const start = performance.now();
  let runs = 0;
  while (runs < minRuns || performance.now() - start < minMs) {
    await run();
    runs++;
  }
  return { runs, msPerRun: (performance.now() - start) / runs };
}

const limits = { ...DEFAULT_EXTRACTION_LIMITS };
const fmt = (n: number, digits = 1): string => n.toFixed(digits).padStart(9);

async function throughput(): Promise<void> {
  console.log('Throughput, inline on one thread:');
  console.log(
    `${'format'.padEnd(16)}${'size KB'.padStart(9)}${'ms/file'.padStart(9)}${'MB/s'.padStart(9)}${'chars'.padStart(9)}  status`,
  );
  const only = process.argv[process.argv.indexOf('--only') + 1];
  for (const sample of await samples()) {
    if (process.argv.includes('--only') && !sample.name.startsWith(only ?? '')) continue;
    let last: Extraction | undefined;
    const content = await sample.make();
    const input = { filename: sample.filename, contentType: 'application/octet-stream', content };
    const { msPerRun } = await timeIt(async () => {
      last = await extractInline(input, limits);
    });
    const mbps = content.length / 1048576 / (msPerRun / 1000);
    console.log(
      `${sample.name.padEnd(16)}${fmt(content.length / 1024, 0)}${fmt(msPerRun)}${fmt(mbps)}${fmt(last?.text.length ?? 0, 0)}  ${last?.status}`,
    );
  }
}

async function pooled(): Promise<void> {
  const pdf = await typicalPdf(5, 200 * 1024);
  for (const workers of [1, 2]) {
    const extractor = createExtractor({ workers });
    const input = { filename: 'contract.pdf', contentType: 'application/pdf', content: pdf };
    await Promise.all(Array.from({ length: workers * 2 }, () => extractor.extract(input)));
    const count = 200;
    const start = performance.now();
    const results = await Promise.all(Array.from({ length: count }, () => extractor.extract(input)));
    const seconds = (performance.now() - start) / 1000;
    await extractor.close();
    const ok = results.filter((r) => r.status === 'ok').length;
    console.log(
      `pool, ${workers} worker(s), ${extractor.isolated ? 'isolated' : 'inline'}: ${(count / seconds).toFixed(0)} PDFs/s (200 KB, 5 pages), ${((count * pdf.length) / 1048576 / seconds).toFixed(1)} MB/s, ${ok}/${count} ok`,
    );
  }
}

async function hostile(): Promise<void> {
  const valid = await makePdf([lines(40)]);
  const deepRtf = Buffer.from(
    `{\\rtf1\\ansi ${'{\\b '.repeat(200_000)}deep text${'}'.repeat(200_000)}}`,
    'latin1',
  );
  const cases: { name: string; filename: string; content: Buffer }[] = [
    {
      name: 'zip bomb 50 MB zeros',
      filename: 'bomb.zip',
      content: makeZip({ 'zeros.bin': new Uint8Array(50 * 1024 * 1024) }),
    },
    { name: 'zip bomb 1 GB declared', filename: 'bomb.zip', content: lyingZip() },
    {
      name: 'truncated PDF',
      filename: 'broken.pdf',
      content: valid.subarray(0, Math.floor(valid.length / 2)),
    },
    {
      name: 'random bytes as .pdf',
      filename: 'noise.pdf',
      content: Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 2654435761) >>> 24)),
    },
    { name: 'RTF 200k nested groups', filename: 'deep.rtf', content: deepRtf },
    {
      name: 'PDF 2,000 pages',
      filename: 'long.pdf',
      content: await makePdf(Array.from({ length: 2000 }, (_, i) => [line(i)])),
    },
    {
      name: 'zip 3 levels deep',
      filename: 'nest.zip',
      content: makeZip({ 'a.zip': makeZip({ 'b.zip': makeZip({ 'c.txt': 'x' }) }) }),
    },
  ];
  console.log('\nHostile files, inline, worst of 3 runs:');
  for (const sample of cases) {
    const input = {
      filename: sample.filename,
      contentType: 'application/octet-stream',
      content: sample.content,
    };
    let worst = 0;
    let result: Extraction | undefined;
    for (let i = 0; i < 3; i++) {
      const start = performance.now();
      result = await extractInline(input, limits);
      worst = Math.max(worst, performance.now() - start);
    }
    const detail =
      result?.children?.[0]?.extraction.reason ?? result?.reason ?? `${result?.text.length} chars`;
    console.log(`${sample.name.padEnd(26)}${fmt(worst)} ms  ${result?.status}: ${detail}`);
  }
}

/** A zip whose directory declares a 1 GB entry stored in 1 MB: refused from the directory alone. */
function lyingZip(): Buffer {
  const zip = makeZip({ 'big.bin': new Uint8Array(1024 * 1024).fill(7) });
  const central = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
  zip.writeUInt32LE(1024 * 1024 * 1024, central + 24);
  return zip;
}

await throughput();
if (!process.argv.includes('--only')) {
  console.log('');
  await pooled();
  await hostile();
}
