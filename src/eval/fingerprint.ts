// The configuration fingerprint stored with every eval run: a hash of everything that can
// change what a question finds, so a regression can be traced to the change that caused it.

import { createHash } from 'node:crypto';
import { LANGUAGES, MAX_TOKEN_LENGTH, MIN_PREFIX_LENGTH } from '../analysis/index.js';
import { CLEANER_VERSION } from '../clean/index.js';
import { INDEX_VERSION } from '../index/index.js';
import { COLUMN_WEIGHTS, DEFAULT_RECENCY, FUZZY_BUDGET_MS } from '../search/index.js';

export interface EvalConfig {
  readonly indexVersion: string;
  readonly cleanerVersion: string;
  readonly analysis: {
    readonly languages: readonly string[];
    readonly minPrefixLength: number;
    readonly maxTokenLength: number;
  };
  readonly ranking: {
    readonly columnWeights: Readonly<Record<string, number>>;
    readonly recency: { readonly maxBoost: number; readonly halfLifeDays: number };
    readonly fuzzyBudgetMs: number;
  };
  readonly retrievers: { readonly query: string; readonly question: string };
  /** No embedder or prompts exist yet; named so a future one changes the fingerprint. */
  readonly embedder: string;
  readonly prompts: string;
}

export function evalConfig(retrievers: { query: string; question: string }): EvalConfig {
  return {
    indexVersion: INDEX_VERSION,
    cleanerVersion: CLEANER_VERSION,
    analysis: {
      languages: [...LANGUAGES],
      minPrefixLength: MIN_PREFIX_LENGTH,
      maxTokenLength: MAX_TOKEN_LENGTH,
    },
    ranking: { columnWeights: COLUMN_WEIGHTS, recency: DEFAULT_RECENCY, fuzzyBudgetMs: FUZZY_BUDGET_MS },
    retrievers,
    embedder: 'none',
    prompts: 'none',
  };
}

/** JSON with sorted keys, so equal configurations hash equally whatever the key order. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export function configFingerprint(config: EvalConfig): string {
  return sha256Hex(stableJson(config)).slice(0, 16);
}
