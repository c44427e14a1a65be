// Health thresholds: defaults, and the loader surfaces call to read them from
// mailsift.config.json (key `health`) and MAILSIFT_HEALTH_* variables. The engine reads none.

import { z } from 'zod';
import { type ConfigSources, readConfigFile } from '../core/config-file.js';
import { MailsiftError } from '../core/errors.js';
import { parseDuration } from './duration.js';

export interface HealthThresholds {
  /** Seconds since the last completed sync before a source warns / fails. */
  readonly syncWarnAfter: number;
  readonly syncFailAfter: number;
  /** Chunks waiting for an embedder before the backlog warns. */
  readonly backlogWarn: number;
  /** Seconds a backlog (embedding or summaries) may keep growing before it warns. */
  readonly backlogGrowingFor: number;
  /** Thread summaries waiting for the LLM before that backlog warns. */
  readonly summaryBacklogWarn: number;
  /** Summaries whose last attempt failed that warn (null: reported, never alarming). */
  readonly summaryFailingWarn: number | null;
  /** Stored-but-unindexed messages that warn / fail (null: never). */
  readonly unindexedWarn: number;
  readonly unindexedFail: number | null;
  /** Ingest failures in an inbox that warn (null: failures are reported, never alarming). */
  readonly failuresWarn: number | null;
}

export const DEFAULT_THRESHOLDS: HealthThresholds = {
  syncWarnAfter: 3600,
  syncFailAfter: 86_400,
  backlogWarn: 1000,
  backlogGrowingFor: 900,
  summaryBacklogWarn: 1000,
  summaryFailingWarn: 1,
  unindexedWarn: 1,
  unindexedFail: null,
  failuresWarn: null,
};

const DURATIONS = ['syncWarnAfter', 'syncFailAfter', 'backlogGrowingFor'] as const;
const COUNTS = [
  'backlogWarn',
  'summaryBacklogWarn',
  'summaryFailingWarn',
  'unindexedWarn',
  'unindexedFail',
  'failuresWarn',
] as const;
const NULLABLE = new Set<string>(['summaryFailingWarn', 'unindexedFail', 'failuresWarn']);

const duration = z.union([z.number().positive(), z.string().min(1)]);
const healthSchema = z
  .strictObject({
    ...Object.fromEntries(DURATIONS.map((k) => [k, duration.optional()])),
    ...Object.fromEntries(COUNTS.map((k) => [k, z.number().int().min(0).nullable().optional()])),
  })
  .optional();

const envName = (key: string): string =>
  `MAILSIFT_HEALTH_${key.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`;

export type HealthConfigSources = ConfigSources;

/** Thresholds from defaults, then the config file's `health` key, then MAILSIFT_HEALTH_* variables. */
export function loadHealthThresholds(sources: HealthConfigSources = {}): HealthThresholds {
  const env = sources.env ?? process.env;
  const file = healthSchema.safeParse(readConfigFile({ ...sources, env }).data.health);
  if (!file.success) {
    const issue = file.error.issues[0];
    const field = `health.${issue?.path.join('.') ?? ''}`;
    throw new MailsiftError('bad_format', `config ${field}: ${issue?.message ?? 'invalid'}`, {
      param: field,
    });
  }
  const merged: Record<string, number | null> = { ...DEFAULT_THRESHOLDS };
  const fromFile = (file.data ?? {}) as Record<string, string | number | null | undefined>;
  for (const key of [...DURATIONS, ...COUNTS]) {
    const name = envName(key);
    const raw = env[name] !== undefined ? env[name] : fromFile[key];
    if (raw === undefined) continue;
    const param = env[name] !== undefined ? name : `health.${key}`;
    if (raw === null || (NULLABLE.has(key) && raw === 'off')) {
      if (!NULLABLE.has(key))
        throw new MailsiftError('invalid_argument', `${param} cannot be turned off`, { param });
      merged[key] = null;
    } else if ((DURATIONS as readonly string[]).includes(key)) merged[key] = parseDuration(raw, param);
    else {
      const count = Number(raw);
      if (!Number.isInteger(count) || count < 0)
        throw new MailsiftError('invalid_argument', `${param} must be a non-negative integer, got '${raw}'`, {
          param,
        });
      merged[key] = count;
    }
  }
  const thresholds = merged as unknown as HealthThresholds;
  if (thresholds.syncFailAfter < thresholds.syncWarnAfter)
    throw new MailsiftError(
      'invalid_argument',
      'health.syncFailAfter must not be shorter than syncWarnAfter',
      {
        param: 'health.syncFailAfter',
      },
    );
  return thresholds;
}
