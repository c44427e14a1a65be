// Durations as the CLI and config files write them (90s, 15m, 1h, 2d), apart from the thresholds'
// loader so that a command's flags can parse them without loading zod.

import { MailsiftError } from '../core/errors.js';

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** Seconds from `90`, `90s`, `15m`, `1h`, `2d`. */
export function parseDuration(value: string | number, param: string): number {
  const match = typeof value === 'number' ? null : /^\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*$/.exec(value);
  const seconds =
    typeof value === 'number' ? value : match ? Number(match[1]) * (UNITS[match[2] || 's'] ?? 1) : NaN;
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new MailsiftError(
      'invalid_argument',
      `${param} must be a duration like 90s, 15m, 1h or 2d, got '${value}'`,
      {
        param,
      },
    );
  return seconds;
}
