// Words a question is made of but no answer is found by: function words and question
// words per language, folded as the analysis module folds (lowercase, no diacritics).

import { foldTerm, type Language } from '../analysis/index.js';

const LISTS: Readonly<Record<Language, string>> = {
  en: `a about above after again all also am an and any are as at be been before being below between both but by can
    could did do does doing done down during each either email emails few find for from further get got had has have
    having he her here hers him his how i if in into is it its just last let me mail message messages more most my
    no nor not now of off on once only or other our out over own please said same say says send sent she should show
    so some such tell than that the their them then there these they this those through to too under until up us very
    was we were what when where which while who whom why will with would you your yours first ever`,
  it: `a ad al alla alle allo ai agli anche che chi ci come con cosa cui da dal dalla dai degli dei del della delle di
    dove e ed era erano essere fa fra gli ha hanno ho i il in io la le lei lo loro lui ma mail messaggio mi ne nei nel
    nella non o per perche piu quale quali quando quanto quella quello questa questo se si sono su sua sue suo suoi
    tra tu un una uno vi voi ultima ultimo primo prima detto`,
  de: `aber als am an auch auf aus bei bin bis da damit das dass dem den der des die dies diese dieser du durch ein
    eine einem einen einer es fur gegen hat hatte haben ich ihm ihn ihr im in ist ja kann mail mit nach nicht noch
    nur ob oder sein sich sie sind so uber um und uns unter vom von vor war waren warum was weil welche welcher wenn
    wer wie wir wird wo zu zum zur erste erst letzte`,
  fr: `a au aux avec ce ces cette comment dans de des du elle en est et etait eu il ils je la le les leur lui ma mail
    mais me meme mes moi mon ne nos notre nous on ou par pas pour pourquoi quand que quel quelle qui sa se ses son sur
    ta te tes toi ton tu un une vos votre vous premier premiere dernier derniere`,
  es: `a al algo como con cual cuando de del donde e el ella ellos en entre era es esa ese eso esta este esto fue ha
    han la las le les lo los mas me mi mis muy no nos o para pero por porque que quien se si sin sobre su sus te tu un
    una uno y ya correo primero primera ultimo ultima`,
  pt: `a ao aos as com como da das de do dos e ela ele em entre era essa esse esta este foi ha isso ja mais mas me meu
    minha na nas no nos o os ou para pela pelo por porque quando que quem se sem sua seu um uma voce primeiro ultimo`,
  nl: `aan als ben bij dan dat de die dit door een en er had heb heeft hem het hij hoe hun ik in is je kan maar me met
    mijn na naar niet nog of om ons ook op over te tot uit van voor waar wanneer was wat we welke wie wij zijn zo eerste laatste`,
  ru: `а без более бы был была были было быть в вам вас весь во вот все всего вы где да даже для до его ее если есть
    еще же за здесь и из или им их к как когда кто ли мы на над не нет ни но о об от по под при про с так также там
    то тогда только у уже что чтобы эта эти это я какой какая какие первый последний письмо`,
};

const SETS = new Map<Language, ReadonlySet<string>>(
  (Object.entries(LISTS) as Array<[Language, string]>).map(([language, words]) => [
    language,
    new Set(words.split(/\s+/).filter(Boolean).map(foldTerm)),
  ]),
);
const ALL: ReadonlySet<string> = new Set([...SETS.values()].flatMap((s) => [...s]));

/** True when `term` (folded) is a stopword of `language`, or of any language when unknown. */
export function isStopword(term: string, language: Language | null): boolean {
  if (language === null) return ALL.has(term);
  return (SETS.get(language)?.has(term) ?? false) || (SETS.get('en')?.has(term) ?? false);
}
