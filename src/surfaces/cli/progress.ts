// Ingest progress on a terminal: one redrawn line with a bar, counts and messages/s.

import type { IngestProgress } from '../../pipeline/ingest.js';

export function progressLine(progress: IngestProgress, width: number): string {
  const seconds = Math.max(progress.elapsedMs / 1000, 0.001);
  const rate = Math.round(progress.scanned / seconds);
  const spinner = '⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏'[Math.floor(progress.elapsedMs / 100) % 10];
  const text =
    `${progress.done ? '✔' : spinner} ${progress.scanned.toLocaleString('en')} scanned · ` +
    `${progress.added.toLocaleString('en')} new · ${progress.duplicates.toLocaleString('en')} dup · ` +
    `${progress.unchanged.toLocaleString('en')} unchanged · ${progress.failed.toLocaleString('en')} failed · ` +
    `${rate.toLocaleString('en')} msg/s · ${(progress.bytes / 1048576 / seconds).toFixed(1)} MB/s`;
  return text.length > width ? text.slice(0, width - 1) : text;
}

/** A progress callback that redraws one stderr line, or null when stderr is not a terminal. */
export function terminalProgress(): ((progress: IngestProgress) => void) | null {
  if (!process.stderr.isTTY) return null;
  return (progress) => {
    const line = progressLine(progress, process.stderr.columns || 100);
    process.stderr.write(`\r\u001b[2K${line}${progress.done ? '\n' : ''}`);
  };
}

/** A `label done/total` counter redrawn on stderr, or undefined when stderr is not a terminal. */
export function countProgress(label: string): ((done: number, total: number) => void) | undefined {
  if (!process.stderr.isTTY) return undefined;
  return (done, total) =>
    process.stderr.write(`\r\u001b[2K${label} ${done}/${total}${done === total ? '\n' : ''}`);
}
