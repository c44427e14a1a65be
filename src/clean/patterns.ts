// The line patterns that mark quoted history, forwards, signatures, disclaimers and footers.
// Reply headers, separators, header keys, mobile lines and sign-offs are built from the
// per-language word lists in lexicon.ts. Every pattern is tested against one trimmed line of at
// most MAX_PATTERN_LINE characters, and every repetition in them is bounded, so none can run away.
import { DEVICES, type LexiconField, lexiconWords } from './lexicon.js';

/** Lines longer than this are prose (or garbage), never a structural marker. */
export const MAX_PATTERN_LINE = 400;

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** A Latin letter outside ASCII: ü, ß, é, ñ, ø. */
const ACCENTED_LATIN = /^(?!\p{ASCII})\p{Script=Latin}$/u;

/**
 * A lexicon phrase as a pattern. A list archive that lost the charset (Mailman's pipermail text
 * export) wrote every non-ASCII letter as `?`: "-----Urspr?ngliche Nachricht-----", "Gr??e,".
 * Each accented Latin letter also matches a `?` there. Not other scripts: a Cyrillic or CJK
 * phrase written that way is question marks only, as likely any line of them.
 */
const lexiconPattern = (phrase: string): string =>
  [...phrase].map((char) => (ACCENTED_LATIN.test(char) ? `(?:${char}|\\?)` : escapeRegex(char))).join('');

/** One alternation of `words`, longest first so that a phrase wins over its own prefix. */
function alternation(words: readonly string[]): string {
  return [...words]
    .sort((a, b) => b.length - a.length)
    .map(lexiconPattern)
    .join('|');
}

const words = (field: LexiconField): string => alternation(lexiconWords(field));

/** The colon that ends a reply header; CJK clients write the full-width one. */
const COLON = '[:：]';

/** What may follow the phrase between the dashes: Thunderbird's "/ Orig.Msg." or "--- Original Message". */
const SEPARATOR_TAIL = '(?:\\s*(?:\\/|-{2,3})[^-]{1,30})?';

const dashed = (phrases: string): RegExp =>
  new RegExp(`^-{2,}\\s*(?:${phrases})${SEPARATOR_TAIL}\\s*-{2,}$`, 'i');

/** `-----Original Message-----` and its translations. */
export const ORIGINAL_MESSAGE = dashed(words('originalMessage'));

/** Forward markers as Gmail, Thunderbird, Yahoo, Apple Mail and Outlook write them. */
export const FORWARD_MARKERS: readonly RegExp[] = [
  dashed(words('forwardedMessage')),
  new RegExp(`^(?:${words('beginForwarded')})\\s?${COLON}$`, 'i'),
];

/** Verbs CJK clients write straight after the name or the date, without a space. */
const UNSPACED = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const VERBS = lexiconWords('wrote');
const VERB = `(?:\\s(?:${alternation(VERBS.filter((v) => !UNSPACED.test(v)))})|(?:${alternation(VERBS.filter((v) => UNSPACED.test(v)))}))`;
/** After the verb: the name, in languages that write it last ("schrieb Hans <h@x>:"), then the colon. */
const VERB_END = `(?:\\s.{0,200})?\\s?${COLON}$`;
const LEADS = words('leads');

/**
 * Attribution lines that name their language: the lead word and the verb both match, so
 * "On Monday we met and she wrote:" passes here and is then rejected unless quoted lines
 * follow it or it carries a date or an address (see isStrongAttribution).
 */
const LEAD_ATTRIBUTION = new RegExp(`^(?:${LEADS})\\s.{4,300}${VERB}${VERB_END}`, 'i');

/**
 * Yahoo's plain text runs the attribution and the quoted text into one line; an address in
 * angle brackets before the verb is what tells it from prose.
 */
export const RUN_ON_ATTRIBUTION = new RegExp(
  `^(?:${LEADS})\\s.{4,300}<[^<>\\s]{1,64}@[^<>\\s]{1,200}>\\)?,?${VERB}\\s?${COLON}`,
  'i',
);

/**
 * Any "<someone> wrote:"-style line, whatever opens it: Gmail writes most languages without a
 * lead word ("pt., 5 lip 2019 o 14:34 Jan <j@x> napisał(a):", "Jan <j@x> ezt írta (…):").
 */
const VERB_ATTRIBUTION = new RegExp(`^.{2,300}${VERB}${VERB_END}`, 'i');

/** A date, a time or an address inside an attribution: what mid-prose "she wrote:" lacks. */
const ATTRIBUTION_EVIDENCE = /@|\d{1,2}:\d{2}|\b(19|20)\d{2}\b|\d{1,2}[./]\d{1,2}[./]\d{2,4}/;

/** Gmail's Russian, Japanese (and other) attributions have no verb: "2019年1月7日(月) 20:32 Name <a@b>:". */
const DATED_ADDRESS_ATTRIBUTION = /^.{0,120}\d.{0,160}<[^<>\s]{1,120}@[^<>\s]{1,120}>\s?[:：]$/;

const ADDRESS = /[\p{L}\p{N}._%+-]{1,64}@[\p{L}\p{N}-]{1,63}\.\p{L}{2}/u;
/** A year, a numeric date, or a year in Arabic-Indic digits. */
const DATE = /(?<!\d)(?:19|20)\d{2}(?!\d)|\d{1,2}[./-]\d{1,2}[./-]\d{2,4}|[٠-٩]{4}/;
/** A clock time, also the Nordic "klo 17.50" and Arabic-Indic digits. */
const TIME = /(?<!\d)\d{1,2}:\d{2}(?!\d)|\b(?:klo|kl\.?|kello)\s?\d{1,2}[.:]\d{2}|[٠-٩]{1,2}:[٠-٩]{2}/i;
const COLON_END = /[:：]$/;

export const hasAddress = (line: string): boolean => line.includes('@') && ADDRESS.test(line);

/** An address, or a date and a time: what every client's reply header carries. */
const hasHeaderEvidence = (line: string): boolean => hasAddress(line) || (DATE.test(line) && TIME.test(line));

export function isAttribution(line: string): boolean {
  return LEAD_ATTRIBUTION.test(line) || DATED_ADDRESS_ATTRIBUTION.test(line);
}

export function isLooseAttribution(line: string): boolean {
  return isAttribution(line) || VERB_ATTRIBUTION.test(line);
}

/** An attribution that stands as a boundary even without quoted lines after it. */
export function isStrongAttribution(line: string): boolean {
  if (isAttribution(line)) return ATTRIBUTION_EVIDENCE.test(line);
  return VERB_ATTRIBUTION.test(line) && hasHeaderEvidence(line);
}

/**
 * The language-independent reply header: a line ending in a colon that carries an address or
 * a date. Alone it is prose ("Figures for 2024:"); splitQuotes takes it only before quoted,
 * indented or header-like text.
 */
export function isIntroLine(line: string): boolean {
  return COLON_END.test(line) && (hasAddress(line) || DATE.test(line));
}

/** Lines that may start a wrapped attribution: a language lead word, or a date. */
export const ATTRIBUTION_LEAD = new RegExp(`^(?:${LEADS})\\s|\\d|[٠-٩]`, 'i');

const FROM_WORDS = words('from');

export const FROM_KEY = new RegExp(`^\\*?(${FROM_WORDS})\\s?(?::\\*?\\s|：)`, 'i');

/** A From key as the first text of an HTML header container (its value may sit in another element). */
export const FROM_KEY_START = new RegExp(`^(${FROM_WORDS})\\s?${COLON}`, 'i');

/** The other header keys of an Outlook reply/forward block, in our languages. */
const OTHER_KEYS = alternation((['date', 'to', 'cc', 'subject'] as const).flatMap(lexiconWords));
const HEADER_KEY = new RegExp(`^\\*?(${OTHER_KEYS})\\s?(?::\\*?(?:\\s|$)|：)`, 'i');

export function isHeaderKeyLine(line: string): boolean {
  return HEADER_KEY.test(line);
}

/** A key and its value, the key from one field of the lexicon. */
const keyValue = (field: LexiconField): RegExp =>
  new RegExp(`^\\*?(${words(field)})\\s?${COLON}\\*?\\s?(.*)$`, 'i');

export const SUBJECT_KEY = keyValue('subject');
export const DATE_KEY = keyValue('date');
export const FROM_VALUE = keyValue('from');

/** Subject prefixes that make an Outlook header block a forward rather than a reply. */
export const FORWARD_SUBJECT = new RegExp(`^(?:${words('forwardPrefix')})\\s?${COLON}`, 'i');

/** Outlook's plain-text separator line before the From: block. */
export const UNDERSCORE_RULE = /^_{10,}$/;

export const SIGNATURE_DELIMITER = /^--\s?$/;

const DEVICE = `(?:${alternation(DEVICES)})`;
const NAMES_DEVICE = new RegExp(DEVICE, 'i');

/** A mobile template as a pattern: `*` any short device name, `#` a short text naming a device or app. */
function mobileTemplate(template: string): string {
  return template
    .split(/([*#])/)
    .map((part) => {
      if (part === '*') return '.{2,40}';
      if (part === '#') return `[^.!?]{0,30}${DEVICE}[^.!?]{0,30}`;
      return escapeRegex(part);
    })
    .join('');
}

const LINK = '<https?:[^>\\s]{1,200}>';

/** "Get Outlook for iOS" in every language: a short line naming Outlook and a phone system. */
const GET_OUTLOOK = `(?=[^.!?]{1,80}(?:${LINK})?$)(?=.*\\boutlook\\b)(?=.*\\b(?:ios|android)\\b)[^.!?]{1,80}`;

/** A whole line of one of `templates`; a final stop and a trailing link are allowed. */
const wholeLine = (templates: readonly string[]): RegExp =>
  new RegExp(`^(?:${templates.join('|')})[.!]?\\s*(${LINK})?$`, 'i');

const MOBILE_TEMPLATES = lexiconWords('mobile');
const ANY_DEVICE_LINE = wholeLine(MOBILE_TEMPLATES.filter((t) => !t.includes('#')).map(mobileTemplate));
const NAMED_DEVICE_LINE = wholeLine([
  ...MOBILE_TEMPLATES.filter((t) => t.includes('#')).map(mobileTemplate),
  GET_OUTLOOK,
]);

/**
 * A mobile client's signature line. The templates that need a device name only run on lines
 * that have one: this test runs at the end of every message.
 */
export function isMobileSignature(line: string): boolean {
  return ANY_DEVICE_LINE.test(line) || (NAMES_DEVICE.test(line) && NAMED_DEVICE_LINE.test(line));
}

const SIGN_OFFS = words('signOffs');

/** Polite closings that may open a sign-off block, also two of them ("Mit freundlichen Grüßen / Best regards"). */
export const SIGN_OFF = new RegExp(`^(?:${SIGN_OFFS})(?:\\s?\\/\\s?(?:${SIGN_OFFS}))?[,.!:、。，！،]?$`, 'i');

/** Lines that only a contact block carries: phone, web, address, job title. */
export const CONTACT_LINE =
  /(\+?\d[\d\s().-]{6,}\d)|(https?:\/\/|www\.)|([\w.+-]{1,64}@[\w-]{1,63}\.[\w.-]{2,})|\b(tel|phone|mobile|mob|cell|fax|cellulare|telefono|telefon|téléphone|teléfono|telefone|тел)\b\.?\s?:?|\b(manager|director|engineer|ceo|cto|cfo|coo|vp|vice president|president|founder|head of|officer|coordinator|specialist|consultant|responsabile|direttore|geschäftsführer|leiter|directeur|directora?|gerente|diretor|diretora|директор|менеджер|инженер)\b/i;

/** Words that only confidentiality disclaimers use together. */
export const DISCLAIMER =
  /confidential|intended recipient|privileged|riservat|destinatario|vertraulich|empfänger|confidentiel|destinataire|confidencial|destinatário|vertrouwelijk|geadresseerde|конфиденциальн|адресат|poufn|adresat/i;

/** Unsubscribe and list-footer phrases. */
export const FOOTER =
  /unsubscribe|opt[- ]out|disiscriv|cancella(re)? l'iscrizione|abmelden|abbestellen|désinscri|désabonn|darse de baja|date de baja|cancelar (a )?inscrição|descadastr|afmelden|uitschrijven|отписаться|отказаться от рассылки|you are receiving this (e-?mail|message)|you received this (e-?mail|message)|manage (your )?(email )?preferences|update your preferences|ricevi questa (e-?mail|newsletter)|sie erhalten diese (e-?mail|nachricht)|vous recevez (cet|ce) (e-?mail|courriel|message)|recibes este (correo|e-?mail|mensaje)|você está recebendo|u ontvangt deze|вы получили это письмо/i;
