// Cleaning benchmark: authored-text accuracy over the project's fixtures (per client and
// per language) and, beside them, over test/fixtures/clean-intl (messages in 32 languages
// written by someone who had not read the cleaner: the measure of record for languages),
// throughput on typical mail, and worst-case time on pathological input.
import { fileURLToPath } from 'node:url';
import { type CleanFixture, loadCleanFixtures, normalizeAuthored } from '../src/clean/fixtures.js';
import { cleanMessage } from '../src/clean/index.js';

const root = fileURLToPath(new URL('../../test/fixtures/clean', import.meta.url));
const blindRoot = fileURLToPath(new URL('../../test/fixtures/clean-intl', import.meta.url));

interface Score {
  cases: number;
  exact: number;
  hit: number;
  predicted: number;
  expected: number;
}

const tokens = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** Multiset overlap of the predicted and expected tokens. */
function overlap(predicted: string[], expected: string[]): number {
  const counts = new Map<string, number>();
  for (const t of expected) counts.set(t, (counts.get(t) ?? 0) + 1);
  let hit = 0;
  for (const t of predicted) {
    const left = counts.get(t) ?? 0;
    if (left > 0) {
      hit++;
      counts.set(t, left - 1);
    }
  }
  return hit;
}

function add(
  scores: Map<string, Score>,
  key: string,
  exact: boolean,
  predicted: string[],
  expected: string[],
): void {
  const s = scores.get(key) ?? { cases: 0, exact: 0, hit: 0, predicted: 0, expected: 0 };
  s.cases++;
  if (exact) s.exact++;
  s.hit += overlap(predicted, expected);
  s.predicted += predicted.length;
  s.expected += expected.length;
  scores.set(key, s);
}

const pct = (a: number, b: number): string =>
  b === 0 ? '  n/a' : `${((100 * a) / b).toFixed(1).padStart(5)}%`;

function printScores(title: string, scores: Map<string, Score>): void {
  console.log(`\n${title.padEnd(16)} cases  exact   precision recall`);
  for (const [key, s] of [...scores].sort()) {
    console.log(
      `${key.padEnd(16)} ${String(s.cases).padStart(5)}  ${pct(s.exact, s.cases)}  ${pct(s.hit, s.predicted)}    ${pct(s.hit, s.expected)}`,
    );
  }
}

function accuracy(fixtures: readonly CleanFixture[]): void {
  const byClient = new Map<string, Score>();
  const byLanguage = new Map<string, Score>();
  const all = new Map<string, Score>();
  const misses: string[] = [];
  for (const f of fixtures) {
    const authored = normalizeAuthored(cleanMessage({ text: f.text, html: f.html }).authored);
    const exact = authored === f.expected;
    if (!exact) misses.push(f.name);
    const predicted = tokens(authored);
    const expected = tokens(f.expected);
    add(byClient, f.client, exact, predicted, expected);
    add(byLanguage, f.language, exact, predicted, expected);
    add(all, 'all', exact, predicted, expected);
  }
  printScores('client', byClient);
  printScores('language', byLanguage);
  printScores('total', all);
  if (misses.length > 0) console.log(`\nnot exact: ${misses.join(', ')}`);
}

function throughput(fixtures: readonly CleanFixture[], label: string): void {
  for (const f of fixtures) cleanMessage(f);
  let count = 0;
  const start = performance.now();
  while (performance.now() - start < 2000) {
    for (const f of fixtures) cleanMessage(f);
    count += fixtures.length;
  }
  const seconds = (performance.now() - start) / 1000;
  console.log(
    `${label.padEnd(40)} ${Math.round(count / seconds)
      .toLocaleString('en-US')
      .padStart(8)} msg/s`,
  );
}

const deepQuotes = (depth: number): string =>
  `${'<blockquote type="cite"><div>level</div>'.repeat(depth)}bottom${'</blockquote>'.repeat(depth)}`;

const PATHOLOGICAL: readonly [string, { text: string | null; html: string | null }][] = [
  ['5 MB single-line HTML', { text: null, html: `<div>${'word <b>bold</b> '.repeat(300_000)}</div>` }],
  ['5 MB single-line text', { text: 'word '.repeat(1_000_000), html: null }],
  [
    '127 KB dense table (largest DOM path)',
    {
      text: null,
      html: `<table>${'<tr><td style="padding:0">cell</td><td><a href="https://x.example/a">link</a></td></tr>'.repeat(1_500)}</table>`,
    },
  ],
  ['500-deep nested blockquotes', { text: null, html: `<p>Reply on top.</p>${deepQuotes(500)}` }],
  ['10,000 unclosed tags', { text: null, html: `<p>start${'<div><span><b>x'.repeat(3_334)}` }],
  [
    '500 levels of > quoting',
    {
      text: `Top reply.\n\n${Array.from({ length: 500 }, (_, i) => `${'> '.repeat(i + 1)}line ${i}`).join('\n')}`,
      html: null,
    },
  ],
  [
    '20,000 attribution-like lines',
    { text: 'On Monday she wrote and he wrote and '.repeat(10).concat(':\n').repeat(20_000), html: null },
  ],
  [
    'all quote, no authored text',
    { text: Array.from({ length: 5_000 }, (_, i) => `> quoted ${i}`).join('\n'), html: null },
  ],
];

function pathological(): void {
  let worst = 0;
  for (const [label, input] of PATHOLOGICAL) {
    cleanMessage(input);
    const start = performance.now();
    cleanMessage(input);
    const ms = performance.now() - start;
    worst = Math.max(worst, ms);
    console.log(`${label.padEnd(40)} ${ms.toFixed(1).padStart(8)} ms`);
  }
  console.log(`${'worst case'.padEnd(40)} ${worst.toFixed(1).padStart(8)} ms (target < 200 ms)`);
}

const fixtures = await loadCleanFixtures(root);
const blind = await loadCleanFixtures(blindRoot);
console.log(`mailsift clean benchmark — ${fixtures.length} fixtures, Node ${process.version}`);
accuracy(fixtures);
console.log(`\n== clean-intl: ${blind.length} messages written without reading the cleaner ==`);
accuracy(blind);
console.log('\nthroughput (one core)');
throughput(fixtures, 'all fixtures');
throughput(
  fixtures.filter((f) => f.html !== null),
  'fixtures with an HTML part',
);
throughput(
  fixtures.filter((f) => f.html === null),
  'text-only fixtures',
);
console.log('\npathological input');
pathological();
