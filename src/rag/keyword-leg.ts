// The keyword leg in question mode: the question's content words (stopwords dropped in
// its language, stems added, an English question's WordNet synonyms beside them) scored
// disjunctively with bm25 over the agent-search index, under the same filters as the
// vector leg. Rare words, identifiers and phrases carry the highest idf, so they still
// lead; a question need not match every word.

import { detectLanguage, isLanguage, type Language, parseQuery, type QueryGroup } from '../analysis/index.js';
import { assertIndexReady, COLUMNS, openPostings } from '../index/index.js';
import { BULK_FACTOR, COLUMN_WEIGHTS, groupAlternatives, quote } from '../search/index.js';
import { type Db, sql } from '../store/index.js';
import { bulkIsMinority } from './bulk-share.js';
import { type CrossLanguage, TRANSLATIONS_PER_WORD } from './cross-language.js';
import { expansionsFor } from './expansions.js';
import type { ExtractedFilters, QuestionFilters } from './filters.js';
import { isStopword } from './stopwords.js';
import { WordNet } from './wordnet.js';

/** Content groups kept from one question: more would only add noise and cost. */
const MAX_GROUPS = 24;
/**
 * Quoted history counts for more in a question than in agent search (COLUMN_WEIGHTS: 0.25),
 * still a weak field beside what the author wrote (2): a reply that quotes the question it
 * answers is about that question. bench:realmail, 2026-12-07, 0.25 → 0.5: LKML keyword MRR
 * 0.672 → 0.698 (floor 0.692), hybrid recall@5 91.7% → 93.8% (MRR 0.671 → 0.669), the German
 * set's keyword 48.8% → 51.2% and MiniLM hybrid MRR 0.393 → 0.415, the cross-language sets
 * unchanged; at 1 the German keyword gained more (55.0%) and every hybrid lost.
 */
const QUOTED_WEIGHT = 0.5;
const WEIGHTS = COLUMNS.map((c) => (c === 'text_quoted' ? QUOTED_WEIGHT : COLUMN_WEIGHTS[c])).join(', ');

export interface KeywordHit {
  readonly rowid: number;
  readonly inboxId: number;
  readonly threadId: string;
  readonly score: number;
  /**
   * Weight in fusion: the share of the question's content groups the message matches, each
   * group counted by its idf, or IDENTIFIER_WEIGHT when it matches an identifier the question
   * names. A hit on one common word of a long question is weak evidence next to a vector
   * match, however high its bm25 among such hits; an exact identifier is the strongest there is.
   */
  readonly weight: number;
}

export const IDENTIFIER_WEIGHT = 2;

/** "INV-K-30577", "9403.20", "GTK7Q2M9": digits tied to more; a bare year or amount is not one. */
export function isIdentifier(group: QueryGroup): boolean {
  return /\d/.test(group.raw) && (group.parts.length > 1 || /\p{L}/u.test(group.raw));
}

/** The groups of a question worth searching for. */
export function contentGroups(question: string, languages: readonly Language[]): QueryGroup[] {
  const language = detectLanguage(question);
  const groups = parseQuery(question, {
    languages: language && !languages.includes(language) ? [...languages, language] : languages,
  });
  return groups
    .filter(
      (g) =>
        g.parts.length > 1 || ((g.parts[0]?.length ?? 0) > 1 && !isStopword(g.parts[0] as string, language)),
    )
    .slice(0, MAX_GROUPS);
}

/**
 * Russian verbs alternate their stem's last consonant between forms (выгрузили / выгружена,
 * оплатить / оплачен, отпустить / отпущен) and Snowball keeps the two stems apart, so a
 * Russian stem also matches its alternates. Short stems are left alone: too many words share them.
 */
const RUSSIAN_ALTERNATIONS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['ст', ['щ']],
  ['щ', ['ст']],
  ['з', ['ж']],
  ['г', ['ж']],
  ['д', ['ж']],
  ['ж', ['з', 'г', 'д']],
  ['с', ['ш']],
  ['х', ['ш']],
  ['ш', ['с', 'х']],
  ['т', ['ч']],
  ['к', ['ч']],
  ['ч', ['т', 'к']],
];
const MIN_ALTERNATING_STEM = 5;

/** The stems `stem` alternates with ("выгруз" → ["выгруж"]); [] for a stem that is not Russian or too short. */
export function russianAlternates(stem: string): string[] {
  if (stem.length < MIN_ALTERNATING_STEM || !/^\p{Script=Cyrillic}+$/u.test(stem)) return [];
  const found = RUSSIAN_ALTERNATIONS.find(([end]) => stem.endsWith(end));
  if (!found) return [];
  const base = stem.slice(0, stem.length - found[0].length);
  return found[1].map((end) => base + end);
}

function withAlternates(group: QueryGroup): QueryGroup {
  if (group.parts.length !== 1) return group;
  const stems = group.stems[0] ?? [];
  const more = stems.flatMap(russianAlternates).filter((s) => !stems.includes(s));
  return more.length === 0 ? group : { ...group, stems: [[...stems, ...more]] };
}

/**
 * The groups without the words that set the date range ("in June 2025"): the filter already
 * holds every candidate to it, so they would only favour mail that repeats the month in its
 * text. Kept when nothing else is left to search for.
 */
function topicGroups(groups: readonly QueryGroup[], filters: ExtractedFilters): QueryGroup[] {
  const topic = groups.filter(
    (g) => !(g.parts.length === 1 && filters.periodWords.includes(g.parts[0] as string)),
  );
  return topic.length > 0 ? topic : [...groups];
}

/**
 * A word's WordNet synonyms, searched beside it in an English question: the question says
 * "shipment" where the mail says "consignment", "factory" where it says "mill". They count
 * for less than the word in fusion: a synonym of another sense of it is no evidence at all.
 */
let wordnet: WordNet | undefined;
const SYNONYM_CREDIT = 0.5;
/**
 * A translation's share of its word's credit in fusion (questionTranslations): as a
 * synonym's, less than the word itself. 0.75 measured no better on the cross-language
 * bench (hybrid recall@5 the same in every language, MRR within ±0.04).
 */
const TRANSLATION_CREDIT = 0.5;

function synonymGroups(group: QueryGroup, languages: readonly Language[]): QueryGroup[] {
  const [word] = group.parts;
  if (group.parts.length !== 1 || word === undefined || isIdentifier(group)) return [];
  // A capitalised word past the first is a name ("Mike", "Acme", "Genoa", "August"): WordNet's
  // words for it ("microphone", "summit", "lordly") would only find unrelated mail.
  if (group.start > 0 && /\p{Lu}/u.test(group.raw)) return [];
  // Found with the first question, not on import: the status command loads this module too.
  wordnet ??= WordNet.bundled();
  return wordnet
    .synonyms(word)
    .filter((w) => !isStopword(w, 'en'))
    .flatMap((w) => contentGroups(w, languages));
}

/**
 * Synonym groups of each group of an English question, at most MAX_SYNONYMS in all, taken
 * round-robin (every word's first synonym, then every word's second, …): each is one more
 * term every message is searched for. Measured with the 67 bench:rag questions in keyword
 * mode on a 100k-message archive: p50 21 ms without synonyms, 29 ms with at most 8, 35 ms
 * unbounded (a 60-word question: 1.08, 1.21, 1.73 s); recall on the bench's own archive no
 * lower with 8 than unbounded.
 */
const MAX_SYNONYMS = 8;

export function questionSynonyms(
  question: string,
  groups: readonly QueryGroup[],
  languages: readonly Language[],
): Map<QueryGroup, QueryGroup[]> {
  const english = detectLanguage(question) === 'en';
  const candidates = groups.map((group) => (english ? synonymGroups(group, languages) : []));
  const chosen = new Map(groups.map((group) => [group, [] as QueryGroup[]]));
  let left = MAX_SYNONYMS;
  for (let round = 0; left > 0 && candidates.some((list) => list.length > round); round++)
    candidates.forEach((list, g) => {
      const next = list[round];
      if (next === undefined || left === 0) return;
      chosen.get(groups[g] as QueryGroup)?.push(next);
      left--;
    });
  return chosen;
}

/**
 * Translations searched for one question at most, taken round-robin over its words as
 * synonyms are (every word's first translation, then every word's second, …).
 */
const MAX_TRANSLATIONS = 24;

/** A translation as one expression: its content words all in the message ("zip code"). */
function translationExpression(
  translation: string,
  into: Language,
  languages: readonly Language[],
): string | null {
  const groups = parseQuery(translation, { languages }).filter(
    (g) => g.parts.length > 1 || ((g.parts[0]?.length ?? 0) > 1 && !isStopword(g.parts[0] as string, into)),
  );
  if (groups.length === 0 || groups.length > 3) return null;
  return groups.length === 1
    ? groupExpression(groups[0] as QueryGroup)
    : `(${groups.map(groupExpression).join(' AND ')})`;
}

/**
 * The searched translations of each group of a question asked in another language than
 * (some of) the mail's, as match expressions; each searched one is recorded in `cross`.
 * Of a word's translations, the dictionary's first senses first, the first
 * TRANSLATIONS_PER_WORD the searched mail holds are taken: a word the mail never writes
 * ("adhesive plaster" for a software patch) finds nothing, and would only crowd out one it does.
 */
export function questionTranslations(
  groups: readonly QueryGroup[],
  languages: readonly Language[],
  cross: CrossLanguage | null | undefined,
  /** Whether any searched message matches an expression. */
  present: (expression: string) => boolean = () => true,
): Map<QueryGroup, string[]> {
  const chosen = new Map(groups.map((group) => [group, [] as string[]]));
  if (!cross) return chosen;
  const candidates = groups.map((group) => {
    const [word] = group.parts;
    if (group.parts.length !== 1 || word === undefined || isIdentifier(group)) return [];
    return cross.translate(group.raw).flatMap(({ into, translations }) =>
      translations
        .filter((t) => t !== word)
        .map((t) => ({ into, translation: t, expression: translationExpression(t, into, languages) }))
        .filter(
          (t): t is { into: Language; translation: string; expression: string } =>
            t.expression !== null && present(t.expression),
        )
        .slice(0, TRANSLATIONS_PER_WORD),
    );
  });
  let left = MAX_TRANSLATIONS;
  for (let round = 0; left > 0 && candidates.some((list) => list.length > round); round++)
    candidates.forEach((list, g) => {
      const next = list[round];
      const group = groups[g] as QueryGroup;
      if (next === undefined || left === 0) return;
      chosen.get(group)?.push(next.expression);
      cross.record(group.raw, next.into, next.translation);
      left--;
    });
  return chosen;
}

/** Any of the group's forms in any field; identifiers match whole tokens, not prefixes. */
function groupExpression(group: QueryGroup): string {
  return `(${groupAlternatives(withAlternates(group), { prefix: false, otherForms: true, spacedParts: true }).join(' OR ')})`;
}

/**
 * Adjacent content words of the question as phrases ("delivery schedule"): a message that
 * has them side by side scores their bm25 on top of the single words'.
 */
function phrases(groups: readonly QueryGroup[]): string[] {
  const result: string[] = [];
  for (let i = 0; i + 1 < groups.length; i++) {
    const a = groups[i] as QueryGroup;
    const b = groups[i + 1] as QueryGroup;
    if (a.parts.length !== 1 || b.parts.length !== 1 || b.start - a.end > 1) continue;
    const phrase = `${quote(a.parts[0] as string)} + ${quote(b.parts[0] as string)}`;
    result.push(`{ident_subject text_authored text_attachments} : (${phrase})`);
  }
  return result;
}

/** SQL conditions (on keyword_docs `d`) and binds shared by every retrieval leg. */
export function filterSql(filters: QuestionFilters): { where: string; binds: Record<string, unknown> } {
  const where: string[] = [];
  const binds: Record<string, unknown> = {};
  if (filters.after !== null) {
    where.push('d.date >= @after');
    binds.after = filters.after;
  }
  if (filters.before !== null) {
    where.push('d.date < @before');
    binds.before = filters.before;
  }
  if (filters.hasAttachment) {
    where.push(`EXISTS (SELECT 1 FROM attachments a WHERE a.message_rowid = d.rowid AND a.inline = 0
      ${filters.attachmentType === 'pdf' ? "AND (a.content_type = 'application/pdf' OR lower(a.filename) LIKE '%.pdf')" : ''})`);
  }
  if (filters.people.length > 0) {
    // A thread with the person in it: the answer may be a reply to them. `+from_address` keeps
    // the lookup on the thread index: by sender, a newsletter's or a billing address's thousands
    // of messages were scanned for every matching document (100k messages: 53 s for one question).
    where.push(`EXISTS (SELECT 1 FROM messages p WHERE p.inbox_id = d.inbox_id AND p.thread_id = d.thread_id
      AND +p.from_address IN (SELECT value FROM json_each(@people)))`);
    binds.people = JSON.stringify(filters.people);
  }
  return { where: where.map((w) => `AND ${w}`).join(' '), binds };
}

/** Up to `limit` messages matching any content word of the question, best first. */
export function keywordLeg(
  db: Db,
  question: string,
  inboxIds: readonly number[],
  filters: ExtractedFilters,
  limit: number,
  /** Compute each hit's fusion weight (a few more index lookups); otherwise every weight is 1. */
  weigh = true,
  /** Retrieve's crossing into the mail's other languages (never agent search's). */
  cross?: CrossLanguage | null,
): KeywordHit[] {
  // An index of another version or half rebuilt could leave the answer out: refuse, as search does.
  assertIndexReady(db);
  const languages = (sql(db, 'SELECT language FROM keyword_languages').all() as Array<{ language: string }>)
    .map((r) => r.language)
    .filter(isLanguage);
  const groups = topicGroups(contentGroups(question, languages), filters);
  if (groups.length === 0 || inboxIds.length === 0) return [];
  const synonyms = questionSynonyms(question, groups, languages);
  const exists = sql(
    db,
    `SELECT 1 FROM keyword_index k CROSS JOIN keyword_docs d ON d.rowid = k.rowid
      WHERE keyword_index MATCH @match AND d.inbox_id IN (SELECT value FROM json_each(@inboxes)) LIMIT 1`,
  );
  const inboxes = JSON.stringify(inboxIds);
  const translations = questionTranslations(groups, languages, cross, (match) =>
    Boolean(exists.get({ match, inboxes })),
  );
  const extra = [
    ...expansionsFor(groups.flatMap((g) => g.parts)).flatMap((w) => contentGroups(w, languages)),
    ...[...synonyms.values()].flat(),
  ];
  const { where, binds } = filterSql(filters);
  const text = `
    SELECT k.rowid AS rowid, d.inbox_id AS inboxId, d.thread_id AS threadId, d.bulk AS bulk,
      -bm25(keyword_index, ${WEIGHTS}) AS score
    FROM keyword_index k CROSS JOIN keyword_docs d ON d.rowid = k.rowid
    WHERE keyword_index MATCH @match AND d.inbox_id IN (SELECT value FROM json_each(@inboxes))
      AND d.untrusted = 0 AND d.excluded = 0 ${where}
    ORDER BY score DESC LIMIT @limit`;
  const rows = sql(db, text).all({
    match: [...groups, ...extra]
      .map(groupExpression)
      .concat([...translations.values()].flat(), phrases(groups))
      .join(' OR '),
    inboxes,
    limit: limit * 2,
    ...binds,
  }) as Array<Omit<KeywordHit, 'weight'> & { bulk: number }>;
  // Bulk mail (mailing lists, newsletters, notifications) repeats the words of every topic;
  // a question about what people wrote is answered by correspondence first, where bulk is a
  // minority of what is searched (bulk-share.ts).
  const discount = bulkIsMinority(db, inboxIds);
  const hits = rows
    .map(({ bulk, ...h }) => ({ ...h, score: bulk && discount ? h.score * BULK_FACTOR : h.score }))
    .sort((a, b) => b.score - a.score)
    .slice(0, limit);
  if (!weigh) return hits.map((h) => ({ ...h, weight: 1 }));
  const weights = fusionWeights(
    db,
    groups,
    hits.map((h) => h.rowid),
    synonyms,
    translations,
  );
  return hits.map((h) => ({ ...h, weight: weights.get(h.rowid) ?? 0 }));
}

/**
 * Per message: the share of `groups` it matches, each group counted by its idf (a rare name
 * or term says more than a common word) and at SYNONYM_CREDIT of it when only a synonym or
 * a translation matches, or IDENTIFIER_WEIGHT when it matches an identifier group. A group
 * with translations counts by the idf of it and them together: a word of another language is
 * rare in the mail only because the mail writes it otherwise.
 */
function fusionWeights(
  db: Db,
  groups: readonly QueryGroup[],
  rowids: readonly number[],
  synonyms: ReadonlyMap<QueryGroup, readonly QueryGroup[]>,
  translations: ReadonlyMap<QueryGroup, readonly string[]> = new Map(),
): Map<number, number> {
  const matched = new Map<number, number>();
  const named = new Set<number>();
  if (rowids.length === 0) return matched;
  // `+rowid`: FTS5 evaluates the group once and SQLite keeps the hits' rows; a bare rowid IN
  // makes FTS5 re-run it per hit (100k messages: ~9 ms a group instead of ~0.4 ms).
  const within = sql(
    db,
    'SELECT rowid FROM keyword_index WHERE keyword_index MATCH @match AND +rowid IN (SELECT value FROM json_each(@ids))',
  );
  const frequency = sql(db, 'SELECT count(*) AS n FROM keyword_index WHERE keyword_index MATCH @match');
  // The postings' live document count, summed over the segment rows (22 at 1M messages):
  // counting keyword_docs took 8-11 ms a question there.
  const total = openPostings(db).documents;
  const ids = JSON.stringify(rowids);
  let sum = 0;
  for (const group of groups) {
    const match = groupExpression(group);
    const translated = translations.get(group) ?? [];
    const df = (
      frequency.get({ match: translated.length === 0 ? match : [match, ...translated].join(' OR ') }) as {
        n: number;
      }
    ).n;
    const idf = Math.log(1 + (total - df + 0.5) / (df + 0.5));
    sum += idf;
    const direct = new Set<number>();
    for (const { rowid } of within.all({ match, ids }) as Array<{ rowid: number }>) {
      direct.add(rowid);
      matched.set(rowid, (matched.get(rowid) ?? 0) + idf);
      if (isIdentifier(group)) named.add(rowid);
    }
    const credit = new Map<number, number>();
    for (const [alternates, share] of [
      [(synonyms.get(group) ?? []).map(groupExpression), SYNONYM_CREDIT],
      [translated, TRANSLATION_CREDIT],
    ] as const) {
      if (alternates.length === 0) continue;
      for (const { rowid } of within.all({ match: alternates.join(' OR '), ids }) as Array<{ rowid: number }>)
        if (!direct.has(rowid)) credit.set(rowid, Math.max(credit.get(rowid) ?? 0, share));
    }
    for (const [rowid, share] of credit) matched.set(rowid, (matched.get(rowid) ?? 0) + idf * share);
  }
  return new Map(
    [...matched].map(([rowid, n]) => [rowid, named.has(rowid) ? IDENTIFIER_WEIGHT : n / Math.max(sum, 1e-9)]),
  );
}
