// Question words that name an act the mail itself rarely names: "dispute" is written as
// "we never agreed" or "we cannot accept", "approved" as "go ahead". Expanding them (folded
// stems of the words mail uses) lets the keyword leg find the act without a vector model.

const EXPANSIONS: ReadonlyMap<string, readonly string[]> = new Map(
  (
    [
      [
        'dispute disputed disputes contest contested object objected',
        'disagree never agreed cannot accept claim misunderstanding reject correct',
      ],
      [
        'approve approved approval decide decided decision choose chose chosen pick picked',
        'approved agreed go ahead decided confirm sign off option',
      ],
      ['cancel cancelled canceled', 'cancel withdraw terminate stop'],
      ['delay delayed late postpone postponed', 'delay late postponed moved pushed reschedule'],
      ['complain complaint complained', 'complaint unhappy disappointed issue problem'],
      ['pay paid payment', 'payment paid invoice transfer remittance'],
      ['contestare contestato contestazione', 'non abbiamo mai concordato accettare reclamo'],
      ['approvato approvata deciso decisione', 'approvato deciso confermato opzione'],
      ['bestritten beanstandet reklamiert', 'nie vereinbart nicht akzeptieren reklamation'],
      ['genehmigt entschieden entscheidung', 'genehmigt entschieden bestatigt option'],
    ] as const
  ).flatMap(([keys, words]) => keys.split(' ').map((k) => [k, words.split(' ')] as const)),
);

/** Extra words for the question's folded content words, without the words themselves. */
export function expansionsFor(words: readonly string[]): string[] {
  const own = new Set(words);
  const extra = new Set<string>();
  for (const word of words) for (const e of EXPANSIONS.get(word) ?? []) if (!own.has(e)) extra.add(e);
  return [...extra];
}
