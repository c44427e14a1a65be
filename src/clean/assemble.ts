// Turns classified lines into a CleanedBody: the body text, spans that cover it completely
// and in order, and the per-kind texts concatenated from those spans.
import type { BodySpan, CleanedBody, ForwardedBlock, SpanKind } from '../core/types.js';
import type { LineKinds } from './quotes.js';

/** Gives each blank line the kind of the line before it (or after it, at the top). */
function fillBlanks(kinds: LineKinds): SpanKind[] {
  const firstKind = kinds.find((k) => k !== null) ?? 'authored';
  let previous: SpanKind = firstKind;
  return kinds.map((kind) => {
    if (kind !== null) previous = kind;
    return previous;
  });
}

export function spansOf(
  lines: readonly string[],
  kinds: LineKinds,
  tail = '',
): { body: string; spans: BodySpan[] } {
  const filled = fillBlanks(kinds);
  const spans: BodySpan[] = [];
  let offset = 0;
  lines.forEach((line, i) => {
    const kind = filled[i] as SpanKind;
    const end = offset + line.length + (i < lines.length - 1 ? 1 : 0);
    const last = spans[spans.length - 1];
    if (last && last.kind === kind) spans[spans.length - 1] = { kind, start: last.start, end };
    else spans.push({ kind, start: offset, end });
    offset = end;
  });
  let body = lines.join('\n');
  if (tail) {
    // Text beyond the cleaning cap is kept, unsplit, as authored.
    const start = body.length;
    body += tail;
    const last = spans[spans.length - 1];
    if (last?.kind === 'authored')
      spans[spans.length - 1] = { kind: 'authored', start: last.start, end: body.length };
    else spans.push({ kind: 'authored', start, end: body.length });
  }
  return { body, spans };
}

function textOfKind(body: string, spans: readonly BodySpan[], kind: SpanKind): string {
  const parts: string[] = [];
  for (const span of spans) {
    if (span.kind !== kind) continue;
    const text = body.slice(span.start, span.end).trim();
    if (text) parts.push(text);
  }
  return parts.join('\n\n');
}

export function assemble(
  source: CleanedBody['source'],
  lines: readonly string[],
  kinds: LineKinds,
  forwarded: readonly ForwardedBlock[],
  tail = '',
): CleanedBody {
  const { body, spans } = spansOf(lines, kinds, tail);
  return {
    source,
    body,
    spans,
    authored: textOfKind(body, spans, 'authored'),
    quoted: textOfKind(body, spans, 'quoted'),
    forwarded,
    signature: textOfKind(body, spans, 'signature'),
    disclaimer: textOfKind(body, spans, 'disclaimer'),
    footer: textOfKind(body, spans, 'footer'),
  };
}
