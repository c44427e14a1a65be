// Shared state of one generation run: the seeded RNG, population, pools of pre-built
// strings, and helpers every message kind uses (trace headers, Message-IDs, transfer encodings).

import { makeAttachmentPool, type PooledAttachment } from './attachments.js';
import { sentence } from './body.js';
import type { MessageSpec } from './compose.js';
import { type Charset, formatRfc5322Date, type Mailbox, type TransferEncoding } from './encode.js';
import type { LanguageCode } from './language.js';
import { PACKS } from './phrases.js';
import { type Client, makePopulation, type Person, type Population } from './population.js';
import { Rng, type ZipfTable, zipfTable } from './prng.js';

/** A message before it becomes bytes, with the corpus metadata the caller gets back. */
export interface Draft {
  readonly spec: MessageSpec;
  readonly kind: string;
  readonly threadKey: string;
  readonly lang: LanguageCode;
  readonly fromOwner: boolean;
}

export interface Context {
  readonly rng: Rng;
  readonly pop: Population;
  readonly inboxDomain: string;
  readonly attachments: readonly PooledAttachment[];
  readonly peopleZipf: ZipfTable;
  /** Random base64 of a DKIM signature's length, pre-folded: signatures are noise, so they are reused. */
  readonly b64Pool: readonly string[];
  serial: number;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

export function createContext(seed: number, inboxDomain: string, owner?: Mailbox): Context {
  const rng = new Rng(seed);
  const pop = makePopulation(rng, inboxDomain, owner);
  const en = PACKS.en;
  const slots = {
    first: 'Anna',
    last: 'Smith',
    order: 'PO-10001',
    invoice: 'INV-10001',
    amount: '1,200.00',
    date: 'May 3',
    day: 'Monday',
    city: 'Milan',
    pct: '5',
    qty: '40',
    company: 'Acme',
    product: 'spare parts',
    year: '2025',
    q: '3',
  };
  const attachments = makeAttachmentPool(rng, () => sentence(rng, en, slots));
  const b64Pool: string[] = [];
  for (let i = 0; i < 64; i++) {
    let s = '';
    for (let j = 0; j < 344; j++) s += B64[rng.int(0, 63)];
    b64Pool.push(s.replace(/(.{70})(?=.)/g, '$1\n\t '));
  }
  return {
    rng,
    pop,
    inboxDomain,
    attachments,
    peopleZipf: zipfTable(pop.people.length, 0.9),
    b64Pool,
    serial: 0,
  };
}

/** A correspondent, Zipf-weighted so a few people write most of the mail, as in real inboxes. */
export function pickPerson(ctx: Context): Person {
  return ctx.pop.people[ctx.rng.zipf(ctx.peopleZipf)] as Person;
}

export function pickCharset(ctx: Context, lang: LanguageCode): Charset {
  const weights = PACKS[lang].pack.charsets;
  let total = 0;
  for (const w of Object.values(weights)) total += w ?? 0;
  let u = ctx.rng.next() * total;
  for (const [cs, w] of Object.entries(weights)) {
    u -= w ?? 0;
    if (u < 0) return cs as Charset;
  }
  return 'utf-8';
}

/** Transfer encoding a client would choose for a body in `charset`. */
export function pickTransferEncoding(ctx: Context, charset: Charset): TransferEncoding {
  if (charset === 'iso-2022-jp') return '7bit';
  if (charset === 'gb2312') return 'base64';
  const u = ctx.rng.next();
  if (charset === 'koi8-r') return u < 0.6 ? '8bit' : 'base64';
  return u < 0.6 ? 'quoted-printable' : u < 0.85 ? 'base64' : '8bit';
}

export function messageIdFor(ctx: Context, client: Client | 'service', domain: string): string {
  const r = ctx.rng;
  ctx.serial++;
  switch (client) {
    case 'gmail':
      return `CA${r.token(1)}${r.chance(0.5) ? '+' : '_'}${r.token(42)}@mail.gmail.com`;
    case 'outlook': {
      const host = `${r.pick(['AM0PR07', 'DB9PR03', 'PAXPR08', 'VI1PR02', 'BN6PR11', 'SN4PR19'])}MB${r.int(1000, 9999)}`;
      return `${host}${r.hex(32).toUpperCase()}@${host}.${r.pick(['eurprd07', 'eurprd03', 'namprd11'])}.prod.outlook.com`;
    }
    case 'apple':
      return `${r.hex(8)}-${r.hex(4)}-${r.hex(4)}-${r.hex(4)}-${r.hex(12)}@${domain}`.toUpperCase();
    case 'thunderbird':
      return `${r.hex(8)}-${r.hex(4)}-${r.hex(4)}-${r.hex(4)}-${r.hex(12)}@${domain}`;
    default:
      return `${r.token(20)}.${ctx.serial}@${domain}`;
  }
}

/**
 * Headers the receiving server and the sender's DKIM add to incoming mail. `auth` 'fail'
 * writes the failing SPF/DKIM/DMARC verdicts of a spoofed sender.
 */
export function traceHeaders(ctx: Context, fromAddress: string, date: Date, auth: 'pass' | 'fail'): string[] {
  const r = ctx.rng;
  const domain = fromAddress.slice(fromAddress.indexOf('@') + 1);
  const owner = ctx.pop.owner.address;
  const received = new Date(date.getTime() + r.int(1, 90) * 1000);
  const ip =
    auth === 'pass'
      ? `${r.int(40, 209)}.${r.int(0, 255)}.${r.int(0, 255)}.${r.int(1, 254)}`
      : `185.${r.int(0, 255)}.${r.int(0, 255)}.${r.int(1, 254)}`;
  const host =
    auth === 'pass'
      ? `mail-${r.token(6).toLowerCase()}.${domain}`
      : `vps${r.int(1000, 99999)}.hosting-${r.token(5).toLowerCase()}.top`;
  const selector = r.pick(['s1', 'google', 'selector1', 'k1', 'mail', 'dkim']);
  const lines = [
    `Return-Path: <${auth === 'pass' ? fromAddress : `bounce-${r.token(8).toLowerCase()}@${host}`}>`,
    `Delivered-To: ${owner}`,
    `Received: from ${host} (${host} [${ip}])\n\tby mx.${ctx.inboxDomain} (Postfix) with ESMTPS id ${r.hex(11).toUpperCase()}\n\tfor <${owner}>; ${formatRfc5322Date(received, 0)}`,
  ];
  if (auth === 'pass') {
    const b = r.pick(ctx.b64Pool);
    lines.push(
      `Authentication-Results: mx.${ctx.inboxDomain};\n\tdkim=pass (2048-bit key) header.d=${domain} header.i=@${domain} header.s=${selector} header.b=${b.slice(0, 8)};\n\tspf=pass (mx.${ctx.inboxDomain}: domain of ${fromAddress} designates ${ip} as permitted sender) smtp.mailfrom=${fromAddress};\n\tdmarc=pass (p=${r.pick(['NONE', 'QUARANTINE', 'REJECT'])} sp=NONE dis=NONE) header.from=${domain}`,
      `DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=${domain}; s=${selector};\n\tt=${Math.floor(date.getTime() / 1000)}; h=from:to:subject:date:message-id:mime-version;\n\tbh=${b.slice(8, 51)}=;\n\tb=${b}`,
    );
  } else {
    lines.push(
      `Authentication-Results: mx.${ctx.inboxDomain};\n\tdkim=none;\n\tspf=fail (mx.${ctx.inboxDomain}: domain of ${fromAddress} does not designate ${ip} as permitted sender) smtp.mailfrom=${fromAddress};\n\tdmarc=fail (p=REJECT sp=REJECT dis=NONE) header.from=${domain}`,
      `X-Spam-Flag: YES`,
      `X-Spam-Status: Yes, score=${r.int(8, 19)}.${r.int(0, 9)} required=5.0`,
    );
  }
  return lines;
}
