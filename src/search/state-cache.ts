// Per-connection memories of a long-lived process (HTTP, MCP) that are exact only while the
// archive they were computed from has not changed: ranked heads (top-cache.ts) and what
// hits are built from (hits.ts). Each is bounded by a cost budget, least recently
// used first, and emptied when the archive state changes.

import { type Db, sql } from '../store/index.js';

/**
 * What rankings and hits read, as one string: equal strings, equal results. The index
 * generation (a rebuild may number its segments again from 1), the segments and their
 * tombstones (new, deleted and re-indexed messages), keyword_meta 'docs_version' (labels
 * that exclude, thread moves: what ranking reads of keyword_docs) and 'hits_version'
 * (labels, message rows, attachment texts, inbox names: what a hit shows), both bumped by
 * triggers in the store's own transactions.
 */
export function archiveState(db: Db): string {
  return sql(
    db,
    `SELECT coalesce((SELECT value FROM keyword_meta WHERE key = 'generation'), '') || '|' ||
       coalesce((SELECT group_concat(id || ':' || dead) FROM keyword_segments), '') || '|' ||
       coalesce((SELECT value FROM keyword_meta WHERE key = 'docs_version'), '') || '|' ||
       coalesce((SELECT value FROM keyword_meta WHERE key = 'hits_version'), '')`,
  )
    .pluck()
    .get() as string;
}

interface Kept<V> {
  state: string;
  readonly values: Map<string, V>;
  cost: number;
}

export class StateCache<V> {
  private readonly kept = new WeakMap<Db, Kept<V>>();

  /** `budget` in the units of `costOf` (rows, bytes…). */
  constructor(
    private readonly budget: number,
    private readonly costOf: (value: V) => number,
  ) {}

  /** The value kept for `key` under `state`, else the one `make` computes (then kept). */
  get(db: Db, state: string, key: string, make: () => V): V {
    const cache = this.under(db, state);
    const found = this.found(cache, key);
    if (found !== undefined) return found;
    const value = make();
    this.keep(cache, key, value);
    return value;
  }

  /**
   * The values kept for `keys` under `state`, in their order; those not kept are computed by
   * one call of `make` with their keys (then kept), which returns them by key.
   */
  getAll(db: Db, state: string, keys: readonly string[], make: (missing: string[]) => Map<string, V>): V[] {
    const cache = this.under(db, state);
    const values = keys.map((key) => this.found(cache, key));
    const missing = keys.filter((_, i) => values[i] === undefined);
    if (missing.length === 0) return values as V[];
    const made = make(missing);
    return keys.map((key, i) => {
      const kept = values[i];
      if (kept !== undefined) return kept;
      const value = made.get(key);
      if (value === undefined) throw new Error(`nothing was made for ${key}`);
      this.keep(cache, key, value);
      return value;
    });
  }

  private under(db: Db, state: string): Kept<V> {
    let cache = this.kept.get(db);
    if (cache?.state !== state) {
      cache = { state, values: new Map(), cost: 0 };
      this.kept.set(db, cache);
    }
    return cache;
  }

  private found(cache: Kept<V>, key: string): V | undefined {
    const found = cache.values.get(key);
    if (found !== undefined) {
      // Least recently used first: a Map iterates in insertion order, and a hit re-inserts.
      cache.values.delete(key);
      cache.values.set(key, found);
    }
    return found;
  }

  private keep(cache: Kept<V>, key: string, value: V): void {
    cache.values.set(key, value);
    cache.cost += this.costOf(value);
    for (const [oldest, old] of cache.values) {
      if (cache.cost <= this.budget || oldest === key) break;
      cache.values.delete(oldest);
      cache.cost -= this.costOf(old);
    }
  }

  /** Forgets everything kept for `db`. */
  clear(db: Db): void {
    this.kept.delete(db);
  }
}
