// Whether a question asks what was decided: "what was decided about …", "did they agree on
// …", "which … was chosen", "what was the conclusion …", "was … approved / rejected", in the languages the filters read
// (en, it, de, fr, es, pt, nl, ru). Such a question is answered by a thread's decision (its
// proposal and the replies that settled it), so retrieval puts the decisions' evidence
// messages beside its rankings (retrieve.ts). Words are matched folded (no accents, lower
// case), by stem at the start of a word, so every inflection counts.

import { foldTerm } from '../analysis/index.js';

/** Word starts that name deciding, agreeing, choosing, concluding, approving or refusing. */
const STEMS: readonly string[] = [
  // en (agree: among WORDS)
  'decid',
  'decis',
  'chose',
  'choos',
  'settled',
  'conclu',
  'outcome',
  'consensus',
  'verdict',
  'approv',
  'reject',
  // it (decid, decis above)
  'concordat',
  'scelt',
  'scels',
  'esito',
  'approvat',
  'respint',
  // de
  'entschied',
  'entscheid',
  'beschloss',
  'beschluss',
  'geeinigt',
  'einigten',
  'vereinbart',
  'gewahlt',
  'ausgewahlt',
  'fazit',
  'genehmigt',
  'abgelehnt',
  // fr (decid, conclu above)
  'convenu',
  'choisi',
  'tranche',
  'approuv',
  'rejet',
  'refus',
  // es, pt (decid, decis, conclu above; not "eligi", which starts "eligible")
  'acordad',
  'acordar',
  'eligieron',
  'eligio',
  'elegid',
  'escogi',
  'escolh',
  'concordaram',
  'aprobad',
  'rechaz',
  'aprovad',
  'rejeit',
  // nl (conclu above)
  'beslo',
  'beslis',
  'besluit',
  'afgesproken',
  'overeengekomen',
  'gekozen',
  'goedgekeurd',
  'afgewezen',
  // ru
  'решил',
  'решен',
  'договорил',
  // Not "соглас": "согласно" is "according to".
  'согласил',
  'согласова',
  'выбрал',
  'выбран',
  'итог',
  'одобр',
  'отклон',
];

/**
 * Whole words: stems of these would also start unrelated words ("according", "accordion",
 * and "agreement", which in mail is as often a contract as a consensus).
 */
const WORDS = new Set([
  'agree',
  'agreed',
  'agrees',
  'agreeing',
  'accordo',
  'accordi',
  'accord',
  'acuerdo',
  'acordo',
  'einig',
]);

/** Two-word phrases: "end up", "settle on", "go with". */
const PHRASES: ReadonlyArray<readonly [RegExp, RegExp]> = [
  [/^(?:end|ended|ending|ends)$/, /^up$/],
  [/^(?:settle|settling)$/, /^on$/],
  [/^(?:go|went|going)$/, /^with$/],
];

export function isDecisionQuestion(question: string): boolean {
  const words = [...question.matchAll(/[\p{L}\p{N}]+/gu)].map((m) => foldTerm(m[0]));
  return words.some(
    (word, i) =>
      WORDS.has(word) ||
      STEMS.some((stem) => word.startsWith(stem)) ||
      PHRASES.some(([first, second]) => first.test(word) && second.test(words[i + 1] ?? '')),
  );
}
