// npm run bench:decisions — the rules-based decision extractor (issue 46) on real mail nobody
// here wrote: ../shared/realmail/lkml (or --corpus DIR) is ingested into a fresh archive
// outside the corpus, every thread is run through the extractor, and the decisions are
// scored against bench/decisions/lkml-decisions.json (or --labels FILE), labels written by a
// helper who never read the extractor. The decisions scored are those the decisions table
// holds after the ingest (read page by page as the surfaces read them), checked to be what a
// fresh extraction of every thread finds. A decision matches a label when it is in the label's
// thread and one of its agreement messages is one of the label's agreement messages.
// Printed: precision of standing decisions and of all, recall overall and per label kind,
// the extraction time per message (beside the ingest time per message), and what deriving
// the whole table costs beside the ingest.
// Nothing is ever written into the corpus folder.

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decisionThread, extractDecisions, findDecisions, syncDecisions } from '../src/decisions/index.js';
import type { DecisionRecord } from '../src/decisions/types.js';
import { Mailsift } from '../src/engine.js';
import { loadThread, sql } from '../src/store/index.js';

const option = (name: string): string | undefined => {
  const at = process.argv.indexOf(`--${name}`);
  return at < 0 ? undefined : process.argv[at + 1];
};
const say = (line = ''): void => {
  process.stdout.write(`${line}\n`);
};

interface Label {
  id: string;
  threadRoot: string;
  statement: string;
  kind: string;
  agreement: Array<{ messageId: string }>;
}

/** Message-IDs compare without brackets and case-insensitively. */
const normalId = (id: string): string => id.trim().replace(/^<|>$/g, '').toLowerCase();

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const corpus = resolve(
  option('corpus') ?? process.env.MAILSIFT_REALMAIL_LKML ?? join(repo, '..', 'shared', 'realmail', 'lkml'),
);
const labelFile = resolve(option('labels') ?? join(repo, 'bench', 'decisions', 'lkml-decisions.json'));
if (!existsSync(corpus)) throw new Error(`no corpus at ${corpus} (--corpus DIR)`);
const labels = (JSON.parse(readFileSync(labelFile, 'utf8')) as { labels: Label[] }).labels;

const work = mkdtempSync(join(tmpdir(), 'mailsift-decisions-'));
try {
  const engine = Mailsift.open(join(work, 'archive.db'));
  const ingested = await engine.ingest([corpus], { inbox: 'lkml' });
  const db = engine.archive.db;
  const threads = sql(
    db,
    'SELECT i.name AS inbox, t.inbox_id, t.id FROM threads t JOIN inboxes i ON i.id = t.inbox_id',
  ).all() as Array<{
    inbox: string;
    inbox_id: number;
    id: string;
  }>;
  /** Every stored decision of the corpus, page by page as a listing reads them. */
  const listed = (): DecisionRecord[] => {
    const all: DecisionRecord[] = [];
    for (let token: string | undefined, page = 0; page === 0 || token !== undefined; page++) {
      const found = findDecisions(db, { inbox: 'lkml', limit: 100, ...(token ? { pageToken: token } : {}) });
      all.push(...found.decisions);
      token = found.nextPageToken ?? undefined;
    }
    return all;
  };
  const decisions = listed();
  const extracted: DecisionRecord[] = [];
  let messages = 0;
  let loadMs = 0;
  let extractMs = 0;
  for (let round = 0; round < 5; round++) {
    // Five rounds for a stable time; the decisions of the first are scored.
    for (const t of threads) {
      const t0 = performance.now();
      const thread = decisionThread(t.inbox, t.id, loadThread(db, t.inbox_id, t.id));
      const t1 = performance.now();
      const found = extractDecisions(thread);
      const t2 = performance.now();
      loadMs += t1 - t0;
      extractMs += t2 - t1;
      if (round === 0) {
        messages += thread.messages.length;
        extracted.push(...found);
      }
    }
  }
  const threadOf = new Map(
    (
      sql(db, 'SELECT message_id, thread_id FROM messages').all() as Array<{
        message_id: string;
        thread_id: string;
      }>
    ).map((r) => [normalId(r.message_id), r.thread_id]),
  );

  const matches = (d: DecisionRecord, label: Label): boolean => {
    const agreed = new Set(label.agreement.map((a) => normalId(a.messageId)));
    const inThread = label.agreement.some((a) => threadOf.get(normalId(a.messageId)) === d.threadId);
    return inThread && d.evidence.some((e) => e.role === 'agreement' && agreed.has(normalId(e.messageId)));
  };
  // Every thread derived again, as an ingest that changed all of them ends.
  db.exec('INSERT OR IGNORE INTO decision_dirty_threads SELECT DISTINCT inbox_id, thread_id FROM messages');
  const deriveStarted = performance.now();
  syncDecisions(db);
  const deriveMs = performance.now() - deriveStarted;
  const sameAsExtracted =
    JSON.stringify(decisions.map((d) => d.statement).sort()) ===
    JSON.stringify(extracted.map((d) => d.statement).sort());

  const standing = decisions.filter((d) => d.status === 'standing');
  const correct = (ds: readonly DecisionRecord[]) => ds.filter((d) => labels.some((l) => matches(d, l)));
  const found = labels.filter((l) => decisions.some((d) => matches(d, l)));
  const ratio = (a: number, b: number) => (b === 0 ? 'n/a' : `${(a / b).toFixed(2)} (${a}/${b})`);

  say(`corpus ${corpus}: ${ingested.added} messages stored in ${(ingested.elapsedMs / 1000).toFixed(1)} s`);
  say(
    `${threads.length} threads, ${messages} messages, ${decisions.length} decisions (${standing.length} standing)`,
  );
  say(`labels ${labelFile}: ${labels.length}`);
  say();
  say(`precision (standing)  ${ratio(correct(standing).length, standing.length)}   target >= 0.8`);
  say(`precision (all)       ${ratio(correct(decisions).length, decisions.length)}`);
  say(`recall                ${ratio(found.length, labels.length)}   target >= 0.6`);
  for (const kind of [...new Set(labels.map((l) => l.kind))].sort()) {
    const ofKind = labels.filter((l) => l.kind === kind);
    say(
      `  recall ${kind.padEnd(20)} ${ratio(ofKind.filter((l) => found.includes(l)).length, ofKind.length)}`,
    );
  }
  for (const kind of [...new Set(decisions.map((d) => d.kind))].sort()) {
    const ofKind = decisions.filter((d) => d.kind === kind);
    say(`  precision ${kind.padEnd(17)} ${ratio(correct(ofKind).length, ofKind.length)}`);
  }
  say();
  const perMessage = (ms: number) => `${((ms / 5 / messages) * 1000).toFixed(1)} µs`;
  say(
    `extraction ${perMessage(extractMs)} a message (loading the thread ${perMessage(loadMs)}); ingest ${((ingested.elapsedMs / ingested.added) * 1000).toFixed(0)} µs a message`,
  );
  say(
    `table: ${sameAsExtracted ? 'holds what a fresh extraction finds' : 'DIFFERS from a fresh extraction'}; deriving every thread ${deriveMs.toFixed(0)} ms, ${((deriveMs / ingested.elapsedMs) * 100).toFixed(1)}% of the ingest`,
  );
  if (process.argv.includes('--llm')) {
    // The LLM method: every rules decision validated and phrased by the local model (or the
    // one MAILSIFT_LLM_* configures), as the background drain does, then scored the same way:
    // the decisions it accepted (method 'llm') against the labels.
    process.env.MAILSIFT_LLM_KIND ??= 'local';
    const { configuredLlm } = await import('../src/surfaces/cli/providers.js');
    const { validatePending } = await import('../src/rag/decision-validate.js');
    const llm = configuredLlm();
    if (!llm) throw new Error('--llm: no LLM configured');
    const started = performance.now();
    const report = await validatePending(engine, llm);
    const llmMs = performance.now() - started;
    await llm.close?.();
    const phrased = listed().filter((d) => d.method === 'llm');
    say();
    say(
      `llm ${llm.id}: ${report.accepted} accepted, ${report.rejected} rejected, ${report.failed} failed of ${decisions.length} (${(llmMs / 1000).toFixed(0)} s)${report.error ? `; stopped: ${report.error}` : ''}`,
    );
    say(`precision (llm, accepted)  ${ratio(correct(phrased).length, phrased.length)}`);
    say(
      `recall (llm, accepted)     ${ratio(labels.filter((l) => phrased.some((d) => matches(d, l))).length, labels.length)}`,
    );
  }
  if (process.argv.includes('--misses')) {
    say();
    for (const d of decisions.filter((x) => !labels.some((l) => matches(x, l))))
      say(
        `extra  [${d.status} ${d.kind} ${d.confidence}] ${d.statement.slice(0, 160)}  ${d.evidence
          .filter((e) => e.role === 'agreement')
          .map((e) => e.messageId)
          .join(' ')}`,
      );
    for (const l of labels.filter((x) => !found.includes(x)))
      say(
        `missed ${l.id} [${l.kind}] ${l.statement.slice(0, 120)}  ${l.agreement.map((a) => a.messageId).join(' ')}`,
      );
  }
  engine.close();
} finally {
  rmSync(work, { recursive: true, force: true });
}
