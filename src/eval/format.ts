// Terminal rendering of an eval report: one table row per question, then the totals,
// the regressions and the notes. Colours only when the caller says the output is a TTY.

import type { EvalReport, QuestionResult } from './run.js';

const CODES = { red: 31, green: 32, yellow: 33, dim: 2 } as const;
type Colour = keyof typeof CODES;

const pct = (n: number): string => `${(n * 100).toFixed(1)}%`;
const cut = (text: string, width: number): string =>
  text.length <= width ? text : `${text.slice(0, width - 1)}…`;

function statusText(r: QuestionResult): string {
  switch (r.status) {
    case 'pass':
      return 'pass';
    case 'miss':
      return 'MISS';
    case 'unknown_ids':
      return `UNKNOWN ${r.unknownIds.join(', ')}`;
    case 'must_not_find':
      return `FOUND ${r.forbiddenFound.map((f) => `${f.id} @${f.rank} (${f.reason})`).join(', ')}`;
    case 'error':
      return `ERROR ${r.error ?? ''}`;
  }
}

export function formatEvalReport(report: EvalReport, options: { colour: boolean }): string {
  const paint = (colour: Colour, text: string): string =>
    options.colour ? `\u001b[${CODES[colour]}m${text}\u001b[0m` : text;
  const regressed = new Set(report.regressions.map((r) => r.id));
  const idWidth = Math.min(28, Math.max(2, ...report.results.map((r) => r.id.length)));
  const rows = report.results.map((r) => {
    const rank = r.scored ? (r.rank === null ? '-' : String(r.rank)) : 'n/a';
    const status = statusText(r);
    const colour: Colour = r.pass ? 'green' : r.status === 'miss' ? 'yellow' : 'red';
    const cells = [
      cut(r.id, idWidth).padEnd(idWidth),
      (r.mode === 'query' ? 'Q' : '?').padEnd(4),
      (r.language ?? '').padEnd(4),
      rank.padStart(4),
      ` ${cut(r.text, 44).padEnd(44)}`,
      ` ${paint(colour, status)}${regressed.has(r.id) ? paint('red', '  (regressed)') : ''}`,
    ];
    return cells.join(' ');
  });
  const header = [
    'id'.padEnd(idWidth),
    'mode',
    'lang',
    'rank',
    ` ${'query / question'.padEnd(44)}`,
    ' result',
  ].join(' ');
  const s = report.summary;
  const lines = [
    paint('dim', header),
    ...rows,
    '',
    `${s.questions} questions (${s.scored} ranked): ${s.passed} passed, ${s.failed} failed`,
    `recall@1 ${pct(s.recallAt1)}  recall@5 ${pct(s.recallAt5)}  recall@10 ${pct(s.recallAt10)}  MRR ${s.mrr.toFixed(3)}`,
    `by language: ${Object.entries(s.byLanguage)
      .map(([language, v]) => `${language} ${pct(v.recallAt10)} (${v.scored})`)
      .join(', ')}`,
  ];
  if (s.mustNotFindViolations > 0)
    lines.push(paint('red', `${s.mustNotFindViolations} mustNotFind id(s) found`));
  if (s.unknownIds > 0) lines.push(paint('red', `${s.unknownIds} expected id(s) not in the archive`));
  lines.push(
    `run ${report.runId ?? '(not stored)'} · fingerprint ${report.fingerprint}` +
      (report.previous
        ? ` · previous run ${report.previous.runId} (${report.previous.startedAt}${
            report.previous.fingerprint === report.fingerprint
              ? ', same configuration'
              : ', other configuration'
          })`
        : ' · first run of this set'),
  );
  if (report.regressions.length > 0) {
    lines.push(paint('red', `${report.regressions.length} question(s) got worse:`));
    for (const r of report.regressions) {
      const show = (o: { rank: number | null; status: string }) => `${o.status} rank ${o.rank ?? '-'}`;
      lines.push(paint('red', `  ${r.id}: ${show(r.before)} → ${show(r.after)}`));
    }
  }
  for (const note of report.notes) lines.push(paint('dim', `note: ${note}`));
  return lines.join('\n');
}
