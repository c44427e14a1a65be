// The words that settle, refuse, propose, object or revise, in the languages the cleaner
// knows (en, it, de, fr, es, pt, nl, ru) and the mailing lists' conventions ("+1", "LGTM",
// "Acked-by:", "applied, thanks", "NAK"). Each cue is matched on one line of authored text,
// so the line it sits on is a verbatim quote.

/** How a reply settles what it answers. */
export type SettleKind = 'apply' | 'trailer' | 'agree' | 'fix' | 'tested' | 'reject';

export interface Cue {
  readonly kind: SettleKind;
  /** Prior weight of the cue alone, before who says it and where. */
  readonly strength: number;
  readonly pattern: RegExp;
}

// Word edges that hold for every script (\b is ASCII-only).
const L = '(?<![\\p{L}\\p{N}])';
const R = '(?![\\p{L}\\p{N}])';
const words = (...alternatives: string[]): RegExp =>
  new RegExp(`${L}(?:${alternatives.join('|')})${R}`, 'iu');

/** Refusals come first: several contain an agreement ("pas d'accord", "не согласен"). */
const REJECT: Cue[] = [
  { kind: 'reject', strength: 0.85, pattern: /^\s*(?:Nacked-by|Nak'?ed-by):/i },
  // Upper case only: "NAK" and "NACK" are the lists' refusals; "Ack" is an agreement.
  { kind: 'reject', strength: 0.85, pattern: /(?<![\p{L}])NAC?K(?:ed)?(?![\p{L}])/u },
  {
    kind: 'reject',
    strength: 0.75,
    pattern: words(
      'no,? because',
      'not applicable to',
      'not acceptable',
      'rejected',
      "I (?:won't|will not|am not going to|can't|cannot) (?:apply|take|merge|accept) (?:this|it|that)",
      "I don't think we should",
      "let's not",
      // it, de, fr, es, pt, nl, ru
      "non sono d'accordo",
      'respinto',
      'respinta',
      'no,? perché',
      'nicht einverstanden',
      'abgelehnt',
      'nein,? weil',
      "pas d'accord",
      'refusé',
      'non,? parce que',
      'no estoy de acuerdo',
      'rechazado',
      'rechazada',
      'no,? porque',
      'não concordo',
      'rejeitado',
      'rejeitada',
      'não,? porque',
      'niet mee eens',
      'niet akkoord',
      'afgewezen',
      'nee,? omdat',
      'не согласен',
      'не согласна',
      'не согласны',
      'отклонено',
      'отклоняю',
      'нет,? потому что',
    ),
  },
];

const AGREE: Cue[] = [
  // A maintainer takes it: "Applied, thanks", "Thanks, applied to net-next", "Queued for .38".
  {
    kind: 'apply',
    strength: 0.9,
    pattern:
      /^\s*(?:(?:thanks|thank you|ok|okay|great)[,!.]?\s*)?(?:I(?:'ve| have)?\s+(?:now\s+)?)?(?:applied|queued|pushed|merged|committed|picked (?:it |this |them )?up|taken)(?![\p{L}])/iu,
  },
  {
    kind: 'apply',
    strength: 0.85,
    pattern: words(
      "I'll (?:take|queue|apply|merge|pick up) (?:it|this|that|them|these)",
      'applied, thanks',
      'thanks, applied',
      'applicato',
      'applicata',
      'angewendet, danke',
      'übernommen, danke',
      'appliqué, merci',
      'aplicado, gracias',
      'aplicado, obrigado',
      'toegepast, bedankt',
      'применил',
      'применено',
      'влил',
    ),
  },
  { kind: 'trailer', strength: 0.8, pattern: /^\s*(?:Acked-by|Reviewed-by):|^\s*Ack(?:ed)?[.!]?\s*$/i },
  { kind: 'tested', strength: 0.55, pattern: /^\s*Tested-by:/i },
  {
    kind: 'agree',
    strength: 0.75,
    pattern: new RegExp(
      `(?:^|\\s)\\+1(?![\\p{N}])|${L}(?:${[
        'LGTM',
        'looks good to me',
        'agreed',
        'I agree',
        'sounds good',
        'sounds great',
        "ok(?:ay)?,? let's(?: do| go| use| take)?",
        "let's do (?:it|that|this)",
        'go ahead',
        'go for it',
        'approved',
        'makes sense',
        'fine (?:by|with) me',
        'works for me',
        'no objections?',
        "d'accordo",
        'va bene',
        'per me va bene',
        'approvato',
        'approvata',
        'procediamo',
        'einverstanden',
        'klingt gut',
        'machen wir so',
        'so machen wir das',
        'genehmigt',
        'sehe ich (?:auch )?so',
        "d'accord",
        'ça me va',
        'ok pour moi',
        'bonne idée',
        'validé',
        'approuvé',
        'ça marche',
        'de acuerdo',
        'me parece bien',
        'aprobado',
        'adelante',
        'hagámoslo',
        'de acordo',
        'concordo',
        'aprovado',
        'combinado',
        'fechado',
        'pode seguir',
        'akkoord',
        'mee eens',
        'klinkt goed',
        'goedgekeurd',
        'laten we dat doen',
        'согласен',
        'согласна',
        'согласны',
        'договорились',
        'принято',
        'одобряю',
        'одобрено',
        'поддерживаю',
        'давайте так',
        'ок,? делаем',
      ].join('|')})${R}`,
      'iu',
    ),
  },
  {
    kind: 'fix',
    strength: 0.65,
    pattern: words(
      'good point',
      'good catch',
      "you're right",
      'you are right',
      "I'll fix (?:it|this|that)",
      'will fix',
      'will do',
      "I'll (?:change|update|rework|resend|respin|redo) (?:it|this|that|the patch)",
      'fixed in v\\d',
      'hai ragione',
      'lo correggo',
      'du hast recht',
      'Sie haben recht',
      'mache ich',
      'tu as raison',
      'vous avez raison',
      'je corrige',
      'tienes razón',
      'lo corrijo',
      'você tem razão',
      'vou corrigir',
      'je hebt gelijk',
      'pas ik aan',
      'ты прав',
      'вы правы',
      'исправлю',
    ),
  },
];

const NEGATION =
  /(?:(?<![\p{L}])(?:not|no|never|hardly|non|nicht|kein|keine|pas|ne|jamais|nunca|nem|não|niet|geen|не|нет|ни)|n't)(?![\p{L}])[^.!?]{0,24}$/iu;

export interface CueHit {
  readonly cue: Cue;
  /** The line of authored text the cue was found on (verbatim, trimmed). */
  readonly line: string;
}

/** Authored text as trimmed lines, without diff hunks and empty lines. */
export function prose(authored: string): string[] {
  const lines: string[] = [];
  let inDiff = false;
  for (const raw of authored.split('\n')) {
    const line = raw.trim();
    if (/^(?:diff --git |Index: |--- a\/|\+\+\+ b\/|@@ )/.test(line)) inDiff = true;
    if (line === '' || inDiff) continue;
    lines.push(line);
  }
  return lines;
}

/** The strongest way `authored` settles what it answers, refusals first; null when it does not. */
export function settleCue(authored: string): CueHit | null {
  const lines = prose(authored);
  for (const cues of [REJECT, AGREE]) {
    let best: CueHit | null = null;
    for (const line of lines) {
      for (const cue of cues) {
        const match = cue.pattern.exec(line);
        if (!match) continue;
        // A question ("sounds good?") or a negated cue ("I don't agree") settles nothing.
        if (
          cue.kind !== 'reject' &&
          (questionAfter(line, match.index) || NEGATION.test(line.slice(0, match.index)))
        )
          continue;
        if (!best || cue.strength > best.cue.strength) best = { cue, line };
      }
    }
    if (best) return best;
  }
  return null;
}

const questionAfter = (line: string, at: number): boolean => /^[^.!]*\?/.test(line.slice(at));

/** "…, but", "however": an agreement hedged in the same line or just after. */
export const HEDGE = words(
  'but',
  'however',
  'although',
  'aber',
  'mais',
  'pero',
  'però',
  'mas',
  'maar',
  'но',
  'однако',
);

export const PROPOSAL = words(
  'I propose',
  'I suggest',
  'I(?:\\x27d| would) (?:like|suggest|prefer)',
  "let's",
  'let us',
  'we should',
  'how about',
  'what about',
  'this patch',
  'the (?:following|attached) patch',
  'please (?:pull|apply|consider|review)',
  'the fix is',
  'propongo',
  'suggerisco',
  'ich schlage vor',
  'lass(?:t)? uns',
  'sollten wir',
  'je propose',
  'je suggère',
  'on pourrait',
  'proponemos',
  'sugiero',
  'proponho',
  'sugiro',
  'ik stel voor',
  'laten we',
  'предлагаю',
  'давайте',
);

export const OBJECTION = words(
  'why not',
  'instead of',
  "I(?:'d| would) rather",
  'what about',
  'how about',
  'concern',
  'perché non',
  'piuttosto',
  'warum nicht',
  'lieber',
  'pourquoi pas',
  'plutôt',
  'por qué no',
  'por que não',
  'waarom niet',
  'liever',
  'почему не',
  'а если',
  'лучше',
);

export const REVISION = words(
  'change of plans?',
  'on second thought',
  'scratch that',
  'instead',
  'after all',
  'revert(?:ing)?',
  'we changed our minds?',
  'cambio di programma',
  'invece',
  'ripensandoci',
  'planänderung',
  'stattdessen',
  'doch lieber',
  'changement de plan',
  'finalement',
  'à la place',
  'cambio de planes?',
  'en su lugar',
  'mudança de planos?',
  'em vez disso',
  'verandering van plan',
  'in plaats daarvan',
  'toch liever',
  'передумали',
  'планы изменились',
  'вместо',
  'всё-таки',
  'все-таки',
);

export const REQUEST = words(
  'please',
  'could you',
  'can you',
  'would you',
  'can we',
  'may I',
  'per favore',
  'potresti',
  'bitte',
  'könnten Sie',
  "s'il vous plaît",
  'pourriez-vous',
  'por favor',
  'podrías',
  'poderia',
  'alsjeblieft',
  'graag',
  'пожалуйста',
  'прошу',
  'можно ли',
);
