// Seeded pseudo-random numbers for the corpus generator: mulberry32 plus the few
// distributions the generator needs. Same seed, same sequence, on every machine.

export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform float in [0, 1). mulberry32: 32-bit state, passes gjrand/PractRand smoke tests. */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /**
   * Index in [0, n) with probability ∝ 1/(i+1)^s, via a precomputed table: the Zipfian
   * shape real term and sender frequencies have, so search benchmarks see realistic skew.
   */
  zipf(table: ZipfTable): number {
    const u = this.next() * table.total;
    const cdf = table.cdf;
    let lo = 0;
    let hi = cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((cdf[mid] as number) < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Lowercase hex string of `length` characters. */
  hex(length: number): string {
    let out = '';
    while (out.length < length) {
      const v = (this.next() * 4294967296) >>> 0;
      out += `${BYTE_HEX[v >>> 24]}${BYTE_HEX[(v >>> 16) & 255]}${BYTE_HEX[(v >>> 8) & 255]}${BYTE_HEX[v & 255]}`;
    }
    return out.length === length ? out : out.slice(0, length);
  }

  /** Random alphanumeric string (base62), e.g. for Message-ID local parts. */
  token(length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += ALNUM[Math.floor(this.next() * 62)];
    return out;
  }
}

/** Two hex digits per byte value: hex() is on every Message-ID and boundary, so no toString(16). */
const BYTE_HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export interface ZipfTable {
  readonly cdf: Float64Array;
  readonly total: number;
}

export function zipfTable(n: number, s = 1): ZipfTable {
  const cdf = new Float64Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) {
    total += 1 / (i + 1) ** s;
    cdf[i] = total;
  }
  return { cdf, total };
}

/** Picks from `items` with Zipfian weights by position: the first items dominate. */
export function zipfPicker<T>(items: readonly T[], s = 1): (rng: Rng) => T {
  const table = zipfTable(items.length, s);
  return (rng) => items[rng.zipf(table)] as T;
}

/** Picks a key of `weights` with probability proportional to its value. */
export function weightedPicker<K extends string>(weights: Readonly<Record<K, number>>): (rng: Rng) => K {
  const keys = Object.keys(weights) as K[];
  const cdf: number[] = [];
  let total = 0;
  for (const k of keys) {
    total += weights[k];
    cdf.push(total);
  }
  return (rng) => {
    const u = rng.next() * total;
    for (let i = 0; i < cdf.length; i++) if (u < (cdf[i] as number)) return keys[i] as K;
    return keys[keys.length - 1] as K;
  };
}
