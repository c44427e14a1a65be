// Extractive thread summaries, for when no LLM writes them: the opening request, the latest
// state, and the sentences in between that carry decisions and dates.

import { signatureRole } from '../clean/index.js';
import type { StoredMessage } from '../store/index.js';
import { contentSentences, sentences } from './tokens.js';

// Stems of decision and commitment words, per language we clean. Matched at word starts on
// lowercased text, so inflections follow ("approv" → approved, approval).
const DECISION_STEMS = [
  // en
  'decid',
  'decision',
  'approv',
  'agree',
  'confirm',
  'reject',
  'cancel',
  'deadline',
  'due ',
  'deliver',
  'postpon',
  'delay',
  'sign',
  'final',
  'go with',
  'chose',
  'choos',
  // it
  'decis',
  'approva',
  'confermia',
  'confermo',
  'confermat',
  'accord',
  'scadenz',
  'consegn',
  'ritard',
  'annull',
  // de
  'entschied',
  'entscheid',
  'genehmig',
  'bestätig',
  'vereinbar',
  'frist',
  'liefer',
  'verschob',
  'abgesagt',
  'zugestimmt',
  // fr
  'décid',
  'décision',
  'approuv',
  'confirm',
  'accord',
  'échéance',
  'livraison',
  'report',
  'annul',
  'valid',
  // es
  'decidi',
  'decisión',
  'aprob',
  'confirm',
  'acuerdo',
  'plazo',
  'entrega',
  'retras',
  'cancel',
  // pt
  'decid',
  'decisão',
  'aprova',
  'confirm',
  'acordo',
  'prazo',
  'entrega',
  'atras',
  'cancel',
  // nl
  'besl',
  'goedgekeurd',
  'bevestig',
  'akkoord',
  'termijn',
  'levering',
  'vertraag',
  'geannuleerd',
  // ru
  'решил',
  'решени',
  'утверд',
  'подтвержд',
  'соглас',
  'срок',
  'поставк',
  'доставк',
  'отмен',
  'перенес',
];

const DECISION = new RegExp(
  `(?:^|[^\\p{L}])(?:${[...new Set(DECISION_STEMS)].map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`,
  'iu',
);

// Dates written in a sentence: 2024-03-04, 4/3/2024, 4.3.24, "3 June", "June 3", weekday names.
const MONTHS =
  'jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|gen|mag|giu|lug|ago|set|ott|dic|mär|mai|okt|dez|janv|févr|avr|juil|août|déc|ene|abr|dic|янв|фев|мар|апр|мая|июн|июл|авг|сен|окт|ноя|дек';
const DATE = new RegExp(
  `\\b\\d{4}-\\d{2}-\\d{2}\\b|\\b\\d{1,2}[./]\\d{1,2}[./]\\d{2,4}\\b|\\b\\d{1,2}\\.?\\s+(?:${MONTHS})|(?:${MONTHS})\\p{L}*\\s+\\d{1,2}\\b|\\b(?:by|until|before|entro|bis|avant|antes|до)\\s+\\p{L}+`,
  'iu',
);

export interface SummaryOptions {
  /** Most sentences taken from the middle of the thread. */
  readonly maxKeySentences?: number;
}

function lead(text: string, n: number): string {
  return contentSentences(text).slice(0, n).join(' ');
}

/** A short plain-text summary of a thread, from its messages in date order. */
export function extractiveSummary(messages: readonly StoredMessage[], options: SummaryOptions = {}): string {
  const byDate = [...messages].sort((a, b) => a.date.getTime() - b.date.getTime());
  const first = byDate[0];
  if (first === undefined) return '';
  const last = byDate[byDate.length - 1] as StoredMessage;
  const who = (m: StoredMessage): string => m.from?.name || m.from?.address || 'unknown sender';
  // Who opened and who spoke last, with the role their signature gives: the parties a question names.
  const whoWithRole = (m: StoredMessage): string => {
    const role = signatureRole(m.cleaned.signature, m.from?.name);
    return role ? `${who(m)} (${role})` : who(m);
  };
  const day = (m: StoredMessage): string => m.date.toISOString().slice(0, 10);
  const lines = [
    `Thread: ${first.subject || '(no subject)'} — ${byDate.length} message(s), ${day(first)} to ${day(last)}.`,
  ];
  const opening = lead(first.cleaned.authored, 3);
  if (opening) lines.push(`Opened by ${whoWithRole(first)} on ${day(first)}: ${opening}`);
  const key: string[] = [];
  const max = options.maxKeySentences ?? 6;
  for (const message of byDate.slice(1, -1)) {
    for (const sentence of sentences(message.cleaned.authored)) {
      if (key.length >= max) break;
      if (sentence.length < 200 && (DECISION.test(sentence) || DATE.test(sentence)))
        key.push(`${who(message)} (${day(message)}): ${sentence}`);
    }
  }
  if (key.length > 0) lines.push(`Key points: ${key.join(' | ')}`);
  if (last !== first) {
    const latest = lead(last.cleaned.authored, 3);
    if (latest) lines.push(`Latest, ${whoWithRole(last)} on ${day(last)}: ${latest}`);
  }
  return lines.join('\n');
}
