// Test support: tiny dictd dictionaries in FreeDict's layout, written by the tests themselves
// (Debian's FreeDict data is never part of the repository).

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const b64 = (n: number): string =>
  n < 64 ? (DIGITS[n] as string) : b64(Math.floor(n / 64)) + DIGITS[n % 64];

/** A dictd dictionary as FreeDict writes one: its info entry, then `entries` (headword line first). */
export function writeDictd(dir: string, stem: string, entries: readonly string[]): void {
  const all = ['00-database-info\nA tiny test dictionary\n', ...entries];
  let data = '';
  const index: string[] = [];
  for (const entry of all) {
    const key = entry === all[0] ? '00databaseinfo' : (entry.split(/[\s/<]/)[0] as string).toLowerCase();
    const start = Buffer.byteLength(data);
    data += entry;
    index.push(`${key}\t${b64(start)}\t${b64(Buffer.byteLength(entry))}`);
  }
  writeFileSync(join(dir, `${stem}.index`), `${index.sort().join('\n')}\n`);
  writeFileSync(join(dir, `${stem}.dict.dz`), gzipSync(Buffer.from(data)));
}

/** Italian→English entries in FreeDict's layout (IPA, part of speech, senses, notes). */
export const ITA_ENG = [
  'fattura /fatːˈura/ <n, fem>\ninvoice, bill\n',
  'spedire /spedˈire/ <v>\n1. ship, send [comm.]\n2. dispatch\n   see: {spedizione}\n',
  'bancale /baŋkˈale/ <n, masc>\npallet, loading platform (wooden)\n',
  'ritardo /ritˈardo/\n1. delay\n2. lateness\n',
  'Roma /rˈoma/\nRome\n',
];
/** English→Italian: read backwards, it adds Italian words the forward one lacks. */
export const ENG_ITA = [
  'shipment /ʃˈɪpmənt/ <n>\nspedizione, carico\n',
  'invoice /ˈɪnvɔɪs/ <n>\nfattura\n',
  'customs /kˈʌstəmz/ <n>\ndogana\n',
];
