// The files a scan passed over as not mail, as ingest and status print them: one line per
// kind with its reason and the first path met, so the user can check a kind is right.

import type { SkippedFiles } from '../../core/types.js';

export function skippedLines(rows: readonly SkippedFiles[], indent: string): string[] {
  if (rows.length === 0) return [];
  const total = rows.reduce((sum, row) => sum + row.count, 0);
  return [
    `${indent}skipped ${total} file(s) that are not mail:`,
    ...rows.map((row) => `${indent}  ${row.count} ${row.kind}: ${row.reason} (e.g. ${row.example})`),
  ];
}
