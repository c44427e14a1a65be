// The languages an archive's mail is written in, by share of its messages (the language the
// keyword index settled for each message at ingest), and retrieval's note when a search spans
// languages but the embedder relates English only: its vectors then match a question to mail in
// another language no better than to unrelated mail, and only the keyword leg crosses over.

import { settledLanguageOf } from '../analysis/language.js';
import { type Db, sql } from '../store/index.js';
import type { Embedder } from './embedder.js';

export interface LanguageShare {
  readonly language: string;
  readonly messages: number;
  /** Of the inbox's messages whose language was settled (too short a text has none). */
  readonly share: number;
}

/**
 * From this share of the mail on, a language counts for the note: a stray message in another
 * language (a forwarded newsletter, an auto-reply) does not make an archive multilingual.
 */
export const MEANINGFUL_SHARE = 0.05;

/** Each inbox's languages by share, largest first, keyed by inbox name (only inboxes with any). */
export function inboxLanguages(db: Db, inboxIds?: readonly number[]): Map<string, LanguageShare[]> {
  const scope = inboxIds ? `AND d.inbox_id IN (${inboxIds.map(() => '?').join(', ')})` : '';
  const rows = sql(
    db,
    `SELECT i.name AS inbox, d.language AS language, COUNT(*) AS messages
       FROM keyword_docs d JOIN inboxes i ON i.id = d.inbox_id
      WHERE d.language IS NOT NULL ${scope}
      GROUP BY i.name, d.language
      ORDER BY i.name, messages DESC, d.language`,
  ).all(...(inboxIds ?? [])) as Array<{ inbox: string; language: string; messages: number }>;
  const byInbox = new Map<string, Array<{ language: string; messages: number }>>();
  for (const row of rows) byInbox.set(row.inbox, [...(byInbox.get(row.inbox) ?? []), row]);
  return new Map(
    [...byInbox].map(([inbox, langs]) => {
      const total = langs.reduce((sum, l) => sum + l.messages, 0);
      return [
        inbox,
        langs.map(({ language, messages }) => ({ language, messages, share: messages / total })),
      ];
    }),
  );
}

const percent = (share: number): string => `${Math.round(share * 100)}%`;

/** "en 62%, it 31%, de 7%" */
export const describeShares = (shares: readonly LanguageShare[]): string =>
  shares.map((s) => `${s.language} ${percent(s.share)}`).join(', ');

/**
 * The note for a search with an English-only embedder over mail or a question in another
 * language; null when the embedder relates languages (or is not known not to), or when the
 * searched mail and the question are English only.
 */
/**
 * The languages of the mail one question searches, read once for every stage that asks:
 * the archive's languages at once, each searched inbox's shares (a count over its messages)
 * only when first needed.
 */
export class SearchedLanguages {
  /** Every language the archive's index has seen. */
  readonly archive: readonly string[];
  private shares: LanguageShare[] | undefined;

  constructor(
    private readonly db: Db,
    readonly inboxIds: readonly number[],
  ) {
    this.archive = (
      sql(db, 'SELECT language FROM keyword_languages').all() as Array<{ language: string }>
    ).map((r) => r.language);
  }

  /**
   * The searched inboxes' languages in a meaningful share, each inbox's; none without a
   * language besides `except` in the archive (then no message is counted).
   */
  meaningful(except: string): readonly LanguageShare[] {
    if (!this.archive.some((l) => l !== except)) return [];
    this.shares ??= [...inboxLanguages(this.db, this.inboxIds).values()]
      .flat()
      .filter((s) => s.share >= MEANINGFUL_SHARE);
    return this.shares;
  }
}

export function englishOnlyEmbedderNote(
  languages: SearchedLanguages,
  question: string,
  embedder: Embedder,
): string | null {
  if (embedder.languages !== 'english') return null;
  // Only its function words or script settle a question's language: a guess on one
  // sentence would note a language that is not there.
  const asked = settledLanguageOf(question);
  const spans = languages.meaningful('en');
  const mail = [...new Set(spans.map((s) => s.language))];
  const mailPart = !mail.some((l) => l !== 'en')
    ? ''
    : languages.inboxIds.length === 1
      ? `the mail is ${describeShares(spans)}`
      : `the mail is in ${mail.join(', ')}`;
  const questionPart = asked !== null && asked !== 'en' ? `the question in ${asked}` : '';
  const where = [mailPart, questionPart].filter((part) => part !== '');
  if (where.length === 0) return null;
  return (
    `the embedder ${embedder.id} relates English text only (${where.join('; ')}): a question meets mail ` +
    'in another language by its words alone; the multilingual model relates them by meaning ' +
    '(scripts/fetch-model.sh --model multilingual, then MAILSIFT_EMBEDDER_MODEL=multilingual; every chunk is embedded again)'
  );
}
