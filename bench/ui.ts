// npm run bench:ui [-- --db PATH] [--queries N] [--loads N]: the web UI's speed. Serves an
// archive (--db; default: one built from the bundled sample) with the built `mailsift serve`,
// then measures (1) the search page's server time: GET /?q= for N queries made of words of
// random messages' subjects, each asked once (no ranked head cached) and then once more
// (cached), timed from request to the last byte over loopback; (2) the first contentful
// paint of the search, message and thread pages in headless Chromium, over --loads pages each.
// Targets (issue #45, on a 100k archive): search p95 ≤ 100 ms, first paint ≤ 1 s.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Mailsift } from '../src/engine.js';
import { sql } from '../src/store/index.js';
import { PAGE_SIZE } from '../src/surfaces/web/pages/search.js';
import { numberArg, percentile } from './measure.js';
import { sampleArchive, startUi, type UiServer } from './ui-support.js';

const QUERIES = numberArg('queries', 'BENCH_QUERIES', 100);
const LOADS = numberArg('loads', 'BENCH_LOADS', 10);

interface Picks {
  readonly inbox: string;
  readonly queries: string[];
  readonly messages: Array<{ readonly messageId: string; readonly threadId: string }>;
}

/** Queries and pages drawn from the archive's own messages (the largest inbox). */
function pick(archive: string): Picks {
  const engine = Mailsift.open(archive);
  try {
    const db = engine.archive.db;
    const { inbox } = sql(
      db,
      `SELECT i.name AS inbox FROM inboxes i JOIN messages m ON m.inbox_id = i.id
       GROUP BY i.id ORDER BY count(*) DESC LIMIT 1`,
    ).get() as { inbox: string };
    const rows = sql(
      db,
      `SELECT m.message_id AS messageId, m.thread_id AS threadId, m.subject FROM messages m
       JOIN inboxes i ON i.id = m.inbox_id WHERE i.name = ? ORDER BY random() LIMIT ?`,
    ).all(inbox, QUERIES) as Array<{ messageId: string; threadId: string; subject: string }>;
    const queries = rows.flatMap((r, i) => {
      const words = r.subject.split(/[^\p{L}\p{N}-]+/u).filter((w) => w.length >= 4);
      // Alternately one word and two: both shapes people type.
      return words.length === 0
        ? []
        : [words.slice(i % words.length, (i % words.length) + 1 + (i % 2)).join(' ')];
    });
    return { inbox, queries, messages: rows.map(({ messageId, threadId }) => ({ messageId, threadId })) };
  } finally {
    engine.close();
  }
}

const ms = (n: number): string => `${n.toFixed(1)} ms`;

function summary(times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  return `p50 ${ms(percentile(sorted, 50))}  p95 ${ms(percentile(sorted, 95))}  max ${ms(sorted[sorted.length - 1] ?? Number.NaN)}  (n=${sorted.length})`;
}

interface Target {
  readonly paths: readonly string[];
  readonly headers: Record<string, string>;
}

/**
 * Times of GET of each target's paths (request to last byte; each must answer 200), taken
 * in turns, one path of each target after the other, so a target does not pay alone for a
 * cold start or a busy moment of the machine.
 */
async function getTimes(url: string, targets: readonly Target[]): Promise<number[][]> {
  const times = targets.map((): number[] => []);
  const rounds = Math.max(...targets.map((t) => t.paths.length));
  for (let i = 0; i < rounds; i++) {
    for (const [n, { paths, headers }] of targets.entries()) {
      const path = paths[i];
      if (path === undefined) continue;
      const started = performance.now();
      const response = await fetch(`${url}${path}`, { headers });
      await response.text();
      if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
      times[n]?.push(performance.now() - started);
    }
  }
  return times;
}

/** The page's first contentful paint (ms after navigation start), once Chromium has reported it. */
const FIRST_PAINT = `new Promise((resolve) => {
  setTimeout(() => resolve(null), 5000);
  new PerformanceObserver((list) => {
    const entry = list.getEntriesByName('first-contentful-paint')[0];
    if (entry) resolve(entry.startTime);
  }).observe({ type: 'paint', buffered: true });
})`;

async function firstPaints(ui: UiServer, paths: readonly string[]): Promise<number[]> {
  const page = await ui.context.newPage();
  const times: number[] = [];
  for (const path of paths) {
    const response = await page.goto(`${ui.url}${path}`, { waitUntil: 'load' });
    if (response?.status() !== 200) throw new Error(`${path} answered ${response?.status()}`);
    const paint = (await page.evaluate(FIRST_PAINT)) as number | null;
    if (paint === null) throw new Error(`no first contentful paint recorded for ${path}`);
    times.push(paint);
  }
  await page.close();
  return times;
}

async function main(): Promise<void> {
  const dbAt = process.argv.indexOf('--db');
  const scratch = dbAt >= 0 ? null : mkdtempSync(join(tmpdir(), 'mailsift-bench-ui-'));
  const archive = scratch ? join(scratch, 'archive.db') : (process.argv[dbAt + 1] as string);
  if (scratch) await sampleArchive(archive);
  const picks = pick(archive);
  const ui = await startUi(archive);
  try {
    const enc = encodeURIComponent;
    const loads = picks.messages.slice(0, LOADS);
    const inbox = enc(picks.inbox);
    process.stdout.write(`archive ${archive}, inbox ${picks.inbox}, ${picks.queries.length} queries\n`);
    // Half the queries on the page, the other half on the API's search with the page's limit,
    // in turns: each asked for the first time, so the API's figure is the engine's share.
    const page = picks.queries.filter((_, i) => i % 2 === 0);
    const api = picks.queries.filter((_, i) => i % 2 === 1);
    const pagePaths = page.map((q) => `/?${new URLSearchParams({ q, inbox: picks.inbox })}`);
    const apiPaths = api.map(
      (q) => `/v1/inboxes/${inbox}/messages/search?${new URLSearchParams({ q, limit: String(PAGE_SIZE) })}`,
    );
    const cookie = { cookie: ui.cookie };
    const [pageTimes = [], apiTimes = []] = await getTimes(ui.url, [
      { paths: pagePaths, headers: cookie },
      { paths: apiPaths, headers: { authorization: `Bearer ${ui.key}` } },
    ]);
    const [again = []] = await getTimes(ui.url, [{ paths: pagePaths, headers: cookie }]);
    process.stdout.write(`search page, first time asked:            ${summary(pageTimes)}\n`);
    process.stdout.write(`API search (limit ${PAGE_SIZE}), other queries: ${summary(apiTimes)}\n`);
    process.stdout.write(`search page, asked again:                 ${summary(again)}\n`);
    const pages = {
      search: picks.queries.slice(0, LOADS).map((q) => `/?${new URLSearchParams({ q, inbox: picks.inbox })}`),
      message: loads.map((m) => `/m/${inbox}/${enc(m.messageId)}`),
      thread: loads.map((m) => `/t/${inbox}/${enc(m.threadId)}?open=${enc(m.messageId)}`),
    };
    for (const [name, paths] of Object.entries(pages))
      process.stdout.write(
        `first contentful paint, ${name} page: ${summary(await firstPaints(ui, paths))}\n`,
      );
  } finally {
    await ui.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
