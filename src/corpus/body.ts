// Readable business prose from a language pack: sentences from Zipf-weighted fragments,
// slot values (order and invoice numbers, amounts, dates, cities), greetings and sign-offs.

import { localParts } from './encode.js';
import { type CompiledPack, fill, type Slots, type Template } from './language.js';
import type { Person } from './population.js';
import { type Rng, type ZipfTable, zipfTable } from './prng.js';

const CITIES = [
  'Milan',
  'Rotterdam',
  'Hamburg',
  'Lyon',
  'Madrid',
  'Porto',
  'Chicago',
  'Austin',
  'London',
  'Warsaw',
  'Moscow',
  'Turin',
  'Munich',
  'Antwerp',
  'Osaka',
  'Shenzhen',
];
const PRODUCTS = [
  'pallet racks',
  'control units',
  'sensor kits',
  'spare parts',
  'steel coils',
  'license seats',
  'packaging film',
  'printer cartridges',
];

/** Zipf tables cached by list length: fragments early in a list are the common ones. */
const tables = new Map<number, ZipfTable>();
function zipfIndex(rng: Rng, length: number): number {
  let t = tables.get(length);
  if (!t) {
    t = zipfTable(length, 1.05);
    tables.set(length, t);
  }
  return rng.zipf(t);
}

export function pickZipf<T>(rng: Rng, items: readonly T[]): T {
  return items[zipfIndex(rng, items.length)] as T;
}

/** Fresh slot values for one message; identifiers are drawn from bounded ranges so they recur. */
export function makeSlots(rng: Rng, c: CompiledPack, to: Person, date: Date): Slots {
  const when = localParts(new Date(date.getTime() + rng.int(1, 30) * 86_400_000), 0);
  const code = c.pack.code;
  const dateText =
    code === 'en'
      ? `${c.pack.months[when.getUTCMonth()]} ${when.getUTCDate()}`
      : `${when.getUTCDate()}/${when.getUTCMonth() + 1}`;
  return {
    first: to.first,
    last: to.last,
    company: to.company || 'Acme',
    order: `PO-${rng.int(10000, 99999)}`,
    invoice: `INV-${rng.int(10000, 99999)}`,
    amount: `${rng.int(1, 98)},${rng.int(100, 999)}.${rng.int(10, 99)}`,
    qty: String(rng.int(2, 60) * 10),
    pct: String(rng.int(3, 40)),
    date: dateText,
    day: c.pack.dayNames[rng.int(1, 5)] as string,
    city: rng.pick(CITIES),
    product: rng.pick(PRODUCTS),
    year: String(date.getUTCFullYear() + 1),
    q: String(rng.int(1, 4)),
  };
}

export function sentence(rng: Rng, c: CompiledPack, slots: Slots): string {
  if (rng.chance(0.22)) return fill(pickZipf(rng, c.standalone), slots);
  const sep = c.pack.spaced ? ' ' : '';
  const end = c.pack.spaced ? '.' : '。';
  const tail = rng.pick(c.tails);
  const s = `${fill(pickZipf(rng, c.nouns), slots)}${sep}${fill(pickZipf(rng, c.predicates), slots)}${fill(tail, slots)}`;
  return s.endsWith(end) ? s : s + end;
}

/** 1..maxParagraphs paragraphs of 1..5 sentences each. */
export function paragraphs(rng: Rng, c: CompiledPack, slots: Slots, maxParagraphs: number): string[] {
  const out: string[] = [];
  const n = rng.int(1, maxParagraphs);
  const sep = c.pack.spaced ? ' ' : '';
  let last = '';
  for (let p = 0; p < n; p++) {
    const k = rng.int(1, 5);
    let para = '';
    for (let i = 0; i < k; i++) {
      // Zipf favours the same few fragments; one redraw keeps a sentence from repeating itself.
      let s = sentence(rng, c, slots);
      if (s === last) s = sentence(rng, c, slots);
      para += i === 0 ? s : sep + s;
      last = s;
    }
    out.push(para);
  }
  return out;
}

export function greeting(rng: Rng, c: CompiledPack, slots: Slots): string {
  return fill(pickZipf(rng, c.greetings), slots);
}

export function subjectLine(rng: Rng, c: CompiledPack, slots: Slots): string {
  return fill(pickZipf(rng, c.subjects), slots);
}

export function pickTemplate(rng: Rng, list: readonly Template[], slots: Slots): string {
  return fill(rng.pick(list), slots);
}

/** Sign-off, name and the sender's signature block ("-- " delimiter on most clients). */
export function signOff(rng: Rng, c: CompiledPack, from: Person, mobile: boolean): string {
  const closing = fill(rng.pick(c.closings), {});
  const name = from.name || from.first;
  if (mobile) return `${closing}\n${from.first}\n\n${c.pack.mobileFooter}`;
  let out = `${closing}\n${name}`;
  if (from.company !== '' && rng.chance(0.7)) {
    out += `\n\n-- \n${name}\n${from.title} | ${from.company}\n${from.phone}\n${from.address}`;
  }
  if (from.disclaimer) out += `\n\n${c.pack.disclaimer}`;
  return out;
}
