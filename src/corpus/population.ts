// The people and domains a generated mailbox talks to: companies per language, well-known
// services, freemail users, and the inbox owner with colleagues at the inbox domain.

import type { Mailbox } from './encode.js';
import type { LanguageCode, LanguagePack } from './language.js';
import { LANGUAGE_WEIGHTS, PACKS } from './phrases.js';
import { type Rng, weightedPicker } from './prng.js';

/** How a person's mail client writes replies: decides quote style and Message-ID shape. */
export type Client = 'gmail' | 'outlook' | 'apple' | 'thunderbird';

export interface Person extends Mailbox {
  readonly first: string;
  readonly last: string;
  readonly domain: string;
  readonly company: string;
  readonly lang: LanguageCode;
  readonly tz: number;
  readonly client: Client;
  readonly title: string;
  readonly phone: string;
  /** Sends from a phone now and then ("Sent from my iPhone"). */
  readonly mobile: boolean;
  /** Company mail servers add a legal disclaimer. */
  readonly disclaimer: boolean;
}

export interface Population {
  readonly owner: Person;
  readonly colleagues: readonly Person[];
  readonly people: readonly Person[];
  readonly domains: readonly string[];
}

/** Real-world domains a business mailbox sees; services get their own senders elsewhere. */
export const KNOWN_DOMAINS = [
  'stripe.com',
  'github.com',
  'gmail.com',
  'outlook.com',
  'yahoo.com',
  'amazon.com',
  'linkedin.com',
  'google.com',
  'slack.com',
  'atlassian.com',
  'dhl.com',
  'fedex.com',
  'ups.com',
  'salesforce.com',
  'hubspot.com',
  'zoom.us',
  'microsoft.com',
  'dropbox.com',
  'shopify.com',
  'icloud.com',
  'gmx.de',
  'libero.it',
  'yandex.ru',
  'orange.fr',
];
const FREEMAIL = [
  'gmail.com',
  'outlook.com',
  'yahoo.com',
  'icloud.com',
  'gmx.de',
  'libero.it',
  'yandex.ru',
  'orange.fr',
];
const SUFFIXES = [
  '',
  '-group',
  '-intl',
  '-services',
  '-partners',
  '-trade',
  '-solutions',
  '-global',
  '-europe',
  '-tech',
];
const TITLES = [
  'Account Manager',
  'Procurement Lead',
  'CFO',
  'Operations Manager',
  'Logistics Coordinator',
  'Sales Director',
  'Project Manager',
  'Head of Finance',
  'Legal Counsel',
  'Supply Chain Analyst',
];

const CYRILLIC: Record<string, string> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  д: 'd',
  е: 'e',
  ё: 'e',
  ж: 'zh',
  з: 'z',
  и: 'i',
  й: 'y',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  у: 'u',
  ф: 'f',
  х: 'kh',
  ц: 'ts',
  ч: 'ch',
  ш: 'sh',
  щ: 'sch',
  ъ: '',
  ы: 'y',
  ь: '',
  э: 'e',
  ю: 'yu',
  я: 'ya',
};
const CJK: Record<string, string> = {
  佐藤: 'sato',
  鈴木: 'suzuki',
  高橋: 'takahashi',
  田中: 'tanaka',
  渡辺: 'watanabe',
  伊藤: 'ito',
  健: 'ken',
  由美: 'yumi',
  大輔: 'daisuke',
  直子: 'naoko',
  翔太: 'shota',
  恵: 'megumi',
  王: 'wang',
  李: 'li',
  张: 'zhang',
  刘: 'liu',
  陈: 'chen',
  杨: 'yang',
  伟: 'wei',
  芳: 'fang',
  娜: 'na',
  强: 'qiang',
  静: 'jing',
  磊: 'lei',
};

/** An ASCII mailbox local part for a name in any of our languages. */
export function localPart(name: string): string {
  const cjk = CJK[name];
  if (cjk) return cjk;
  const folded = name
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[а-яё]/g, (c) => CYRILLIC[c] ?? '');
  return folded.replace(/[^a-z0-9]+/g, '');
}

function displayName(pack: LanguagePack, first: string, last: string): string {
  return pack.spaced ? `${first} ${last}` : `${last}${first}`;
}

function makeDomains(rng: Rng, count: number, inboxDomain: string): { domain: string; lang: LanguageCode }[] {
  const pickLang = weightedPicker(LANGUAGE_WEIGHTS);
  const seen = new Set<string>([inboxDomain, ...KNOWN_DOMAINS]);
  const out: { domain: string; lang: LanguageCode }[] = [];
  for (let guard = 0; out.length < count && guard < count * 50; guard++) {
    const lang = pickLang(rng);
    const pack = PACKS[lang].pack;
    const domain = `${rng.pick(pack.companyStems)}${rng.pick(SUFFIXES)}.${rng.pick(pack.tlds)}`;
    if (seen.has(domain)) continue;
    seen.add(domain);
    out.push({ domain, lang });
  }
  return out;
}

function companyName(domain: string): string {
  const stem = domain.split('.')[0] ?? domain;
  return stem
    .split('-')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}

function makePerson(rng: Rng, lang: LanguageCode, domain: string, taken: Set<string>): Person {
  const pack = PACKS[lang].pack;
  const first = rng.pick(pack.firstNames);
  const last = rng.pick(pack.lastNames);
  const lp = localPart(last);
  const fp = localPart(first);
  const shapes = [`${fp}.${lp}`, `${fp.charAt(0)}.${lp}`, `${fp}${lp}`, `${fp}`, `${lp}.${fp}`];
  let local = shapes[rng.int(0, shapes.length - 1)] as string;
  for (let n = 2; taken.has(`${local}@${domain}`); n++) local = `${fp}.${lp}${n}`;
  const address = `${local}@${domain}`;
  taken.add(address);
  const freemail = FREEMAIL.includes(domain);
  const clients: Client[] = freemail
    ? ['gmail', 'gmail', 'apple', 'outlook']
    : ['outlook', 'outlook', 'gmail', 'apple', 'thunderbird'];
  return {
    name: rng.chance(0.93) ? displayName(pack, first, last) : '',
    address,
    first,
    last,
    domain,
    company: freemail ? '' : companyName(domain),
    lang,
    tz: rng.pick(pack.tzOffsets),
    client: rng.pick(clients),
    title: rng.pick(TITLES),
    phone: `+${rng.int(1, 49)} ${rng.int(100, 999)} ${rng.int(100, 999)} ${rng.int(1000, 9999)}`,
    mobile: rng.chance(0.3),
    disclaimer: !freemail && rng.chance(0.25),
  };
}

/** ~`people` correspondents over ~`domains` domains, plus the owner and colleagues. */
export function makePopulation(
  rng: Rng,
  inboxDomain: string,
  ownerBox?: Mailbox,
  people = 2000,
  domains = 300,
): Population {
  const taken = new Set<string>();
  const companies = makeDomains(rng, domains - KNOWN_DOMAINS.length - 1, inboxDomain);
  const first = makePerson(rng, 'en', inboxDomain, taken);
  const owner: Person = {
    ...first,
    name: `${first.first} ${first.last}`,
    client: 'gmail',
    mobile: true,
    disclaimer: false,
  };
  if (ownerBox) {
    const [given = ownerBox.name, ...rest] = ownerBox.name.split(' ');
    Object.assign(owner, {
      name: ownerBox.name,
      address: ownerBox.address,
      first: given,
      last: rest.join(' '),
    });
  }
  const colleagues: Person[] = [];
  for (let i = 0; i < 40; i++)
    colleagues.push(makePerson(rng, rng.chance(0.8) ? 'en' : 'it', inboxDomain, taken));
  const pickLang = weightedPicker(LANGUAGE_WEIGHTS);
  const out: Person[] = [];
  while (out.length < people) {
    if (rng.chance(0.15)) {
      const lang = pickLang(rng);
      const fm =
        lang === 'de'
          ? 'gmx.de'
          : lang === 'it'
            ? 'libero.it'
            : lang === 'ru'
              ? 'yandex.ru'
              : lang === 'fr'
                ? 'orange.fr'
                : rng.pick(FREEMAIL.slice(0, 4));
      out.push(makePerson(rng, lang, fm, taken));
    } else {
      const c = rng.pick(companies);
      out.push(makePerson(rng, c.lang, c.domain, taken));
    }
  }
  // Zipf picking favours the first people: seed the top ranks with every language so even a
  // small corpus has conversations (and charsets) in all of them.
  const rarestFirst = (Object.keys(LANGUAGE_WEIGHTS) as LanguageCode[]).sort(
    (a, b) => LANGUAGE_WEIGHTS[a] - LANGUAGE_WEIGHTS[b],
  );
  rarestFirst.forEach((lang, i) => {
    const at = 4 + i * 5;
    const j = out.findIndex((p) => p.lang === lang);
    if (j > at) out.splice(at, 0, ...out.splice(j, 1));
  });
  return {
    owner,
    colleagues,
    people: out,
    domains: [inboxDomain, ...KNOWN_DOMAINS, ...companies.map((c) => c.domain)],
  };
}
