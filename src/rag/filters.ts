// Filters read from a question by rules: dates and periods ("last October", "in 2019",
// "since March", "nel 2019", "seit März", "depuis mars", "desde marzo", "с марта"),
// attachments ("with a PDF"), and people or domains the archive knows as senders.

import { foldTerm } from '../analysis/index.js';
import { type Db, sql } from '../store/index.js';
import { isStopword } from './stopwords.js';

export interface QuestionFilters {
  /** Inclusive lower bound, ms since epoch. */
  readonly after: number | null;
  /** Exclusive upper bound, ms since epoch. */
  readonly before: number | null;
  readonly hasAttachment: boolean;
  /** 'pdf' when the question asks for one. */
  readonly attachmentType: string | null;
  /**
   * Sender addresses the question asks for as authors ("from X", "X wrote", "X's mail",
   * "according to X"): a hard filter, the answer's thread has one of them in it.
   */
  readonly people: readonly string[];
  /**
   * Sender addresses a name, local part or domain word of the question merely mentions (a
   * person who is the topic, a product that a robot's address also carries): a soft signal
   * that may raise a message from them, never a filter.
   */
  readonly boosted: readonly string[];
  /** The phrases the rules recognised, for explaining the result. */
  readonly matched: readonly string[];
}

/** The filters with what only the keyword leg reads; a retrieval result shows QuestionFilters. */
export interface ExtractedFilters extends QuestionFilters {
  /** The question's words (folded) that set the date range: "june", "2025", "week". */
  readonly periodWords: readonly string[];
}

// Month names (folded) per language; Russian by stem, so every case form matches.
const MONTHS: readonly (readonly string[])[] = [
  ['january', 'gennaio', 'januar', 'janvier', 'enero', 'janeiro', 'januari', 'январ', 'jan'],
  ['february', 'febbraio', 'februar', 'fevrier', 'febrero', 'fevereiro', 'februari', 'феврал', 'feb'],
  ['march', 'marzo', 'marz', 'mars', 'maart', 'март', 'mar'],
  ['april', 'aprile', 'avril', 'abril', 'апрел', 'apr'],
  ['may', 'maggio', 'mai', 'mayo', 'maio', 'mei', 'мая', 'май', 'мае'],
  ['june', 'giugno', 'juni', 'juin', 'junio', 'junho', 'июн', 'jun'],
  ['july', 'luglio', 'juli', 'juillet', 'julio', 'julho', 'июл', 'jul'],
  ['august', 'agosto', 'aout', 'augustus', 'август', 'aug'],
  ['september', 'settembre', 'septembre', 'septiembre', 'setembro', 'сентябр', 'sep', 'sept'],
  ['october', 'ottobre', 'oktober', 'octobre', 'octubre', 'outubro', 'октябр', 'oct', 'okt'],
  ['november', 'novembre', 'noviembre', 'novembro', 'ноябр', 'nov'],
  ['december', 'dicembre', 'dezember', 'decembre', 'diciembre', 'dezembro', 'декабр', 'dec', 'dez'],
];

const MONTH_INDEX = new Map<string, number>();
MONTHS.forEach((names, i) => {
  for (const name of names) MONTH_INDEX.set(name, i);
});
const RUSSIAN_STEMS = [...MONTH_INDEX.keys()].filter((k) => /[а-я]/.test(k) && k.length > 3);

function monthOf(word: string): number | null {
  const exact = MONTH_INDEX.get(word);
  if (exact !== undefined) return exact;
  const stem = RUSSIAN_STEMS.find((s) => word.startsWith(s));
  return stem === undefined ? null : (MONTH_INDEX.get(stem) as number);
}

const LAST = new Set([
  'last',
  'scorso',
  'scorsa',
  'letzten',
  'letzte',
  'letztes',
  'dernier',
  'derniere',
  'pasado',
  'pasada',
  'passado',
  'passada',
  'vorige',
  'afgelopen',
  'прошлом',
  'прошлой',
  'прошлый',
  'прошлая',
  'прошлого',
]);
const SINCE = new Set([
  'since',
  'from',
  'da',
  'dal',
  'dalla',
  'seit',
  'ab',
  'depuis',
  'desde',
  'sinds',
  'с',
  'со',
]);
// Not "of": "the audit of 2019" is what the mail is about, not when it was sent.
const IN = new Set(['in', 'nel', 'nello', 'im', 'en', 'em', 'в', 'во']);
const BEFORE = new Set(['before', 'prima', 'vor', 'avant', 'antes', 'voor', 'до']);
const PERIODS: ReadonlyMap<string, 'week' | 'month' | 'year'> = new Map([
  ['week', 'week'],
  ['settimana', 'week'],
  ['woche', 'week'],
  ['semaine', 'week'],
  ['semana', 'week'],
  ['week', 'week'],
  ['неделе', 'week'],
  ['month', 'month'],
  ['mese', 'month'],
  ['monat', 'month'],
  ['mois', 'month'],
  ['mes', 'month'],
  ['mes', 'month'],
  ['maand', 'month'],
  ['месяце', 'month'],
  ['year', 'year'],
  ['anno', 'year'],
  ['jahr', 'year'],
  ['annee', 'year'],
  ['ano', 'year'],
  ['jaar', 'year'],
  ['году', 'year'],
]);
const ATTACHMENT_WORDS = new Set([
  'attachment',
  'attachments',
  'attached',
  'allegato',
  'allegati',
  'anhang',
  'anhange',
  'angehangt',
  'jointe',
  'jointes',
  'adjunto',
  'adjuntos',
  'anexo',
  'bijlage',
  'вложение',
  'вложением',
  'вложении',
  'вложения',
]);

const utc = (year: number, month: number): number => Date.UTC(year, month, 1);

/** Folded words of the question with their original spans. */
function words(question: string): Array<{ word: string; raw: string; joined: boolean }> {
  return [...question.matchAll(/[\p{L}\p{N}]+/gu)].map((m) => {
    const before = question[(m.index ?? 0) - 1] ?? ' ';
    const after = question[(m.index ?? 0) + m[0].length] ?? ' ';
    // Part of an identifier (INV-2019-131, 2019/117): not a date.
    const joined =
      /[-/_.@]/.test(before) ||
      /[-/_@]/.test(after) ||
      (after === '.' && /\w/.test(question[(m.index ?? 0) + m[0].length + 1] ?? ''));
    return { word: foldTerm(m[0]), raw: m[0], joined };
  });
}

/** The most recent start of `month` strictly before (last) or up to (in) the current month. */
function recentMonth(month: number, now: Date, strictlyBefore: boolean): number {
  const year = now.getUTCFullYear();
  const current = now.getUTCMonth();
  return utc(month < current || (!strictlyBefore && month === current) ? year : year - 1, month);
}

export function extractFilters(
  db: Db,
  question: string,
  inboxIds: readonly number[],
  now = new Date(),
): ExtractedFilters {
  const ws = words(question);
  let after: number | null = null;
  let before: number | null = null;
  const matched: string[] = [];
  const periodWords: string[] = [];
  const year = (w: string | undefined): number | null =>
    w !== undefined && /^(19|20)\d\d$/.test(w) ? Number(w) : null;

  for (let i = 0; i < ws.length; i++) {
    const w = ws[i]?.word as string;
    const prev = ws[i - 1]?.word;
    const next = ws[i + 1]?.word;
    const month = monthOf(w);
    // A bare year after a noun labels a thing ("budget 2025", "price list 2024"); a period
    // is introduced by a preposition ("in 2019", "since 2020", "before 2021").
    const y =
      ws[i]?.joined || prev === undefined || !(IN.has(prev) || SINCE.has(prev) || BEFORE.has(prev))
        ? null
        : year(w);
    // A month is a period only next to a preposition, "last" or a year: "in October", "since
    // March", "October 2024". Otherwise it is what the mail is about ("the invoice for
    // October", sent in November), and "may" is a verb.
    const cue =
      (prev !== undefined && (LAST.has(prev) || SINCE.has(prev) || BEFORE.has(prev) || IN.has(prev))) ||
      (next !== undefined && LAST.has(next)) ||
      year(next) !== null;
    // "before 5 January", "since 3 March 2024": a day bound, in the most recent such day's
    // year unless one is given.
    const dayCue = ws[i - 2]?.word;
    const dayOfMonth = prev !== undefined && /^([1-9]|[12]\d|3[01])$/.test(prev) ? Number(prev) : null;
    if (
      month !== null &&
      dayOfMonth !== null &&
      dayCue !== undefined &&
      (BEFORE.has(dayCue) || SINCE.has(dayCue))
    ) {
      const explicitYear = year(next);
      const thisYear = Date.UTC(now.getUTCFullYear(), month, dayOfMonth) <= now.getTime();
      const at = Date.UTC(explicitYear ?? now.getUTCFullYear() - (thisYear ? 0 : 1), month, dayOfMonth);
      if (BEFORE.has(dayCue)) before = at;
      else after = at;
      matched.push(
        ws
          .slice(i - 2, i + (explicitYear !== null ? 2 : 1))
          .map((x) => x.raw)
          .join(' '),
      );
      periodWords.push(prev as string, w);
      if (explicitYear !== null) {
        periodWords.push(next as string);
        i++;
      }
    } else if (month !== null && cue) {
      const explicitYear = year(next);
      const last = (prev !== undefined && LAST.has(prev)) || (next !== undefined && LAST.has(next));
      const start = explicitYear !== null ? utc(explicitYear, month) : recentMonth(month, now, last);
      const end = utc(new Date(start).getUTCFullYear(), month + 1);
      if (prev !== undefined && SINCE.has(prev)) after = start;
      else if (prev !== undefined && BEFORE.has(prev)) before = start;
      else {
        after = start;
        before = end;
      }
      matched.push(
        ws
          .slice(Math.max(0, i - 1), i + (explicitYear !== null ? 2 : 1))
          .map((x) => x.raw)
          .join(' '),
      );
      periodWords.push(w);
      if (explicitYear !== null) {
        periodWords.push(next as string);
        i++;
      }
    } else if (y !== null) {
      periodWords.push(w);
      if (prev !== undefined && SINCE.has(prev)) after = utc(y, 0);
      else if (prev !== undefined && BEFORE.has(prev)) before = utc(y, 0);
      else {
        after = utc(y, 0);
        before = utc(y + 1, 0);
      }
      matched.push(
        ws
          .slice(Math.max(0, i - 1), i + 1)
          .map((x) => x.raw)
          .join(' '),
      );
    } else if (
      PERIODS.has(w) &&
      ((prev !== undefined && LAST.has(prev)) || (next !== undefined && LAST.has(next)))
    ) {
      const period = PERIODS.get(w);
      const day = 86_400_000;
      const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
      if (period === 'week') {
        const monday = today - ((now.getUTCDay() + 6) % 7) * day;
        after = monday - 7 * day;
        before = monday;
      } else if (period === 'month') {
        after = utc(now.getUTCFullYear(), now.getUTCMonth() - 1);
        before = utc(now.getUTCFullYear(), now.getUTCMonth());
      } else {
        after = utc(now.getUTCFullYear() - 1, 0);
        before = utc(now.getUTCFullYear(), 0);
      }
      periodWords.push(w);
      matched.push(
        `${prev !== undefined && LAST.has(prev) ? `${ws[i - 1]?.raw} ` : ''}${ws[i]?.raw}${next !== undefined && LAST.has(next) ? ` ${ws[i + 1]?.raw}` : ''}`,
      );
    }
  }

  const pdf = ws.some((x) => x.word === 'pdf');
  const hasAttachment =
    pdf || ws.some((x) => ATTACHMENT_WORDS.has(x.word)) || /pi[eè]ce jointe/i.test(question);
  if (hasAttachment) matched.push(pdf ? 'PDF' : 'attachment');

  const { people, boosted } = matchPeople(db, ws, inboxIds);
  if (people.length > 0) matched.push(...people);
  return {
    after,
    before,
    hasAttachment,
    attachmentType: pdf ? 'pdf' : null,
    people,
    boosted,
    matched,
    periodWords,
  };
}

/** Most senders a name may stand for: a name shared by more narrows nothing. */
const MAX_SENDERS_PER_NAME = 5;

/**
 * Words right before a name that make it the author asked for: "from X", "sent by X", "to X",
 * "according to X" and their translations ("secondo X", "laut X", "по словам X"). Not the
 * possessive "of" (di, de, van): "la proposta di Dana" is about Dana's proposal, like "Dana's
 * proposal".
 */
const AUTHOR_BEFORE = new Set([
  'from',
  'by',
  'to',
  'da',
  'von',
  'laut',
  'par',
  'selon',
  'por',
  'segun',
  'segundo',
  'secondo',
  'volgens',
  'от',
  'словам',
]);
/**
 * Words right after a name (after at most one auxiliary) that make it the author: what they
 * wrote, said, asked or decided ("Joe said", "did Marco decide", "Marco has decided").
 */
const AUTHOR_AFTER = new Set([
  'wrote',
  'write',
  'writes',
  'said',
  'say',
  'says',
  'replied',
  'reply',
  'replies',
  'answered',
  'answer',
  'asked',
  'ask',
  'asks',
  'suggested',
  'suggest',
  'proposed',
  'propose',
  'posted',
  'post',
  'sent',
  'send',
  'mentioned',
  'mention',
  'explained',
  'explain',
  'decided',
  'decide',
  'recommended',
  'recommend',
  'reported',
  'report',
  'claimed',
  'argued',
  'think',
  'thought',
  'mean',
  'meant',
  'agreed',
  'agree',
  'promised',
  'confirmed',
  'confirm',
  'announced',
  'complained',
  'scritto',
  'detto',
  'chiesto',
  'risposto',
  'proposto',
  'deciso',
  'schrieb',
  'geschrieben',
  'sagte',
  'gesagt',
  'fragte',
  'antwortete',
  'vorgeschlagen',
  'entschieden',
  'ecrit',
  'dit',
  'demande',
  'repondu',
  'propose',
  'decide',
  'escribio',
  'dijo',
  'pregunto',
  'respondio',
  'propuso',
  'decidio',
  'escreveu',
  'disse',
  'perguntou',
  'respondeu',
  'propos',
  'decidiu',
  'schreef',
  'zei',
  'vroeg',
  'antwoordde',
  'stelde',
  'написал',
  'написала',
  'сказал',
  'сказала',
  'спросил',
  'спросила',
  'ответил',
  'ответила',
  'предложил',
  'предложила',
  'решил',
  'решила',
]);
/** Auxiliaries between a name and its verb: "Marco has decided", "Joe did say". */
const AUXILIARIES = new Set(['has', 'had', 'did', 'does', 'ha', 'hat', 'have', 'just', 'also', 'then']);
/** "Joe's mail": a possessive anchors the author only before a word for mail; "Dana's proposal" is a topic. */
const MAIL_NOUNS = new Set([
  'mail',
  'mails',
  'email',
  'emails',
  'message',
  'messages',
  'reply',
  'replies',
  'note',
  'letter',
  'post',
  'posts',
  'answer',
  'response',
]);

type QuestionWord = { readonly word: string; readonly raw: string };

/**
 * Whether the name at words[start..end] is anchored as the author the question asks for:
 * an author word right before it, a possessive before a word for mail, or a verb of writing, saying or
 * deciding (after at most one auxiliary) right after it.
 */
function anchoredAsAuthor(ws: readonly QuestionWord[], start: number, end: number): boolean {
  if (AUTHOR_BEFORE.has(ws[start - 1]?.word ?? '')) return true;
  let after = end + 1;
  if (ws[after]?.word === 's') return MAIL_NOUNS.has(ws[after + 1]?.word ?? '');
  if (AUXILIARIES.has(ws[after]?.word ?? '')) after++;
  return AUTHOR_AFTER.has(ws[after]?.word ?? '');
}

/**
 * Senders whose name part, first domain label or (for senders without a name) address
 * local part equals a question word of 3+ letters: `people` when the question anchors the
 * name as the author (anchoredAsAuthor; a name of several words, "Michael Neuling", counts
 * as one), `boosted` when it only mentions it. Words shared by many senders (a common first
 * name, a webmail domain) narrow nothing and are ignored.
 */
function matchPeople(
  db: Db,
  ws: readonly QuestionWord[],
  inboxIds: readonly number[],
): { people: string[]; boosted: string[] } {
  if (inboxIds.length === 0) return { people: [], boosted: [] };
  const { byWord } = knownSenders(db, inboxIds);
  const sendersAt = ws.map(({ word }) => {
    if (word.length < 3 || /^\d+$/.test(word) || isStopword(word, null)) return undefined;
    const set = byWord.get(word);
    return set !== undefined && set.size <= MAX_SENDERS_PER_NAME ? set : undefined;
  });
  const people = new Set<string>();
  const boosted = new Set<string>();
  for (let start = 0; start < ws.length; start++) {
    if (sendersAt[start] === undefined) continue;
    let end = start;
    while (sendersAt[end + 1] !== undefined) end++;
    const target = anchoredAsAuthor(ws, start, end) ? people : boosted;
    for (let i = start; i <= end; i++) for (const address of sendersAt[i] ?? []) target.add(address);
    start = end;
  }
  for (const address of people) boosted.delete(address);
  return { people: [...people].sort(), boosted: [...boosted].sort() };
}

/**
 * The senders each of `names` stands for (the LLM's people, organisations and domains), by
 * namedSenders. A name that matches no sender, or more than MAX_SENDERS_PER_NAME, is
 * returned as unknown.
 */
export function resolvePeople(
  db: Db,
  names: readonly string[],
  inboxIds: readonly number[],
): { people: string[]; unknown: string[] } {
  const known = knownSenders(db, inboxIds);
  const people = new Set<string>();
  const unknown: string[] = [];
  for (const name of names) {
    const found = namedSenders(name.trim().toLowerCase(), known);
    if (found.length === 0 || found.length > MAX_SENDERS_PER_NAME) unknown.push(name);
    else for (const address of found) people.add(address);
  }
  return { people: [...people].sort(), unknown };
}

/**
 * The senders `wanted` (lowercased) names: an address as it is, or by its start
 * (`noreply@github`); a domain (`kestrelpack.com`, `@kestrelpack.com`) by the senders at it
 * or under it; a name by the senders whose words (as the rules match them) hold every word
 * of it, or an organisation written in words ("Kestrel Pack") by its domain.
 */
function namedSenders(wanted: string, { senders, byWord }: KnownSenders): string[] {
  if (/^[^@\s]+@[^@\s]+$/.test(wanted))
    return senders.includes(wanted) ? [wanted] : senders.filter((a) => a.startsWith(wanted));
  if (/^@?[\p{L}\p{N}-]+(\.[\p{L}\p{N}-]+)+$/u.test(wanted)) {
    const domain = wanted.replace(/^@/, '');
    return senders.filter((a) => a.endsWith(`@${domain}`) || a.endsWith(`.${domain}`));
  }
  const words = [...wanted.matchAll(/[\p{L}\p{N}]+/gu)]
    .map((m) => foldTerm(m[0]))
    .filter((w) => w.length >= 3);
  if (words.length === 0) return [];
  const byWords = [...(byWord.get(words[0] as string) ?? [])].filter((a) =>
    words.every((w) => byWord.get(w)?.has(a) === true),
  );
  if (byWords.length > 0 || words.length === 1) return byWords;
  const joined = words.join('');
  return senders.filter((a) => domainLabel(a).replaceAll('-', '') === joined);
}

/** The first label of an address's domain, folded: `kestrelpack` of `mike@kestrelpack.com`. */
const domainLabel = (address: string): string => foldTerm(address.split('@')[1]?.split('.')[0] ?? '');

/** The archive's sender addresses, and each sender word with the addresses that carry it. */
interface KnownSenders {
  readonly senders: readonly string[];
  readonly byWord: ReadonlyMap<string, ReadonlySet<string>>;
}

/**
 * Every sender's words (name parts, first domain label, and for senders without a name the
 * address local part) with the addresses that carry them. Reading the distinct senders is a
 * scan of every message, so they are kept per database until a message is added or removed.
 */
const senderCache = new WeakMap<Db, { stamp: string; known: KnownSenders }>();

function knownSenders(db: Db, inboxIds: readonly number[]): KnownSenders {
  const { maxId, n } = sql(db, 'SELECT max(id) AS maxId, count(*) AS n FROM messages').get() as {
    maxId: number | null;
    n: number;
  };
  const stamp = `${JSON.stringify(inboxIds)}:${maxId}:${n}`;
  const cached = senderCache.get(db);
  if (cached?.stamp === stamp) return cached.known;
  const senders = sql(
    db,
    `SELECT DISTINCT from_name AS name, from_address AS address FROM messages
     WHERE inbox_id IN (SELECT value FROM json_each(?)) AND from_address <> ''`,
  ).all(JSON.stringify(inboxIds)) as Array<{ name: string; address: string }>;
  const byWord = new Map<string, Set<string>>();
  for (const { name, address } of senders) {
    const [local = '', domain = ''] = address.split('@');
    // The local part stands for the person only without a display name: a named sender's
    // local part is often a role or service word ("shipment-tracking", "billing", "news").
    const keys = new Set(
      [
        ...name.split(/[\s,."'()]+/),
        ...(name.trim() === '' ? local.split(/[._+-]+/) : []),
        (domain.split('.')[0] ?? '').split('-')[0] ?? '',
      ].map(foldTerm),
    );
    for (const key of keys) {
      if (key.length < 3) continue;
      if (!byWord.has(key)) byWord.set(key, new Set());
      byWord.get(key)?.add(address);
    }
  }
  const known = { senders: [...new Set(senders.map((s) => s.address))], byWord };
  senderCache.set(db, { stamp, known });
  return known;
}
