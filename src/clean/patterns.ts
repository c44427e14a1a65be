// The line patterns that mark quoted history, forwards, signatures, disclaimers and footers
// in the eight languages we support (en, it, de, fr, es, pt, nl, ru). Every pattern is tested
// against one trimmed line of at most MAX_PATTERN_LINE characters, so none can run away.

/** Lines longer than this are prose (or garbage), never a structural marker. */
export const MAX_PATTERN_LINE = 400;

/** `-----Original Message-----` and its translations. */
export const ORIGINAL_MESSAGE =
  /^-{2,}\s*(original message|mail original|messaggio originale|ursprüngliche nachricht|message d'origine|mensaje original|mensagem original|oorspronkelijk bericht|исходное сообщение)\s*-{2,}$/i;

/** Forward markers as Gmail, Thunderbird, Apple Mail and Outlook write them. */
export const FORWARD_MARKERS: readonly RegExp[] = [
  /^-{2,}\s*(forwarded message|messaggio inoltrato|weitergeleitete nachricht|message transféré|mensaje reenviado|mensagem encaminhada|mensagem reencaminhada|doorgestuurd bericht|пересылаемое сообщение|пересланное сообщение)\s*-{2,}$/i,
  /^(begin forwarded message|inizio messaggio inoltrato|anfang der weitergeleiteten nachricht|début du message réexpédié|début du message transféré|inicio del mensaje reenviado|início da mensagem reencaminhada|início da mensagem encaminhada|begin doorgestuurd bericht|начало переадресованного сообщения)\s?:$/i,
];

/**
 * Attribution lines that name their language: the lead word and the verb both match, so
 * "On Monday we met and she wrote:" passes here and is then rejected unless quoted lines
 * follow it or it carries a date or an address (see isStrongAttribution).
 */
const ATTRIBUTIONS: readonly RegExp[] = [
  /^on\s.{4,300}\swrote\s?:$/i,
  /^il\s.{4,300}\sha scritto\s?:$/i,
  /^am\s.{4,300}\sschrieb\s.{0,200}:$/i,
  /^le\s.{4,300}\sa écrit\s?:$/i,
  /^el\s.{4,300}\sescribió\s?:$/i,
  /^(em|no dia|a)\s.{4,300}\sescreveu\s?:$/i,
  /^op\s.{4,300}\s(schreef\s.{0,200}|het volgende geschreven\s?):$/i,
  /^.{2,300}\s(написал|написала|написал\(а\)|пишет)\s?:$/i,
];

/**
 * Yahoo's plain text runs the attribution and the quoted text into one line; an address in
 * angle brackets before the verb is what tells it from prose.
 */
export const RUN_ON_ATTRIBUTION =
  /^(on|il|am|le|el|em|op)\s.{4,300}<[^<>\s@]{1,64}@[^<>\s]{1,200}>\)?,?\s?(wrote|ha scritto|schrieb|a écrit|escribió|escreveu|schreef)\s?:/i;

/** Any "<someone> wrote:"-style line, accepted only right before quoted content. */
const LOOSE_ATTRIBUTION =
  /^.{2,300}\s(wrote|ha scritto|schrieb|geschreven|a écrit|escribió|escreveu|schreef|написал|написала|написал\(а\)|пишет)\s?.{0,200}:$/i;

/** A date, a time or an address inside an attribution: what mid-prose "she wrote:" lacks. */
const ATTRIBUTION_EVIDENCE = /@|\d{1,2}:\d{2}|\b(19|20)\d{2}\b|\d{1,2}[./]\d{1,2}[./]\d{2,4}/;

/** Gmail's Russian (and other) attributions have no verb: "пн, 4 мар. 2024 г. в 10:12, Имя <a@b>:". */
const DATED_ADDRESS_ATTRIBUTION = /^.{0,120}\d.{0,160}<[^<>\s]{1,120}@[^<>\s]{1,120}>\s?:$/;

export function isAttribution(line: string): boolean {
  return ATTRIBUTIONS.some((re) => re.test(line)) || DATED_ADDRESS_ATTRIBUTION.test(line);
}

export function isLooseAttribution(line: string): boolean {
  return isAttribution(line) || LOOSE_ATTRIBUTION.test(line);
}

/** An attribution that stands as a boundary even without quoted lines after it. */
export function isStrongAttribution(line: string): boolean {
  return isAttribution(line) && ATTRIBUTION_EVIDENCE.test(line);
}

/** Lines that may start a wrapped attribution: a language lead word, or a date. */
export const ATTRIBUTION_LEAD = /^(on|il|am|le|el|em|no dia|op)\s|\d/i;

export const FROM_KEY = /^\*?(from|da|von|de|van|от)\s?:\*?\s/i;

/** The other header keys of an Outlook reply/forward block, in our languages. */
const HEADER_KEY =
  /^\*?(sent|date|to|cc|subject|inviato|data|a|oggetto|gesendet|datum|an|betreff|envoyé|à|objet|date d'envoi|enviado el|enviado|enviada em|fecha|para|asunto|assunto|verzonden|aan|onderwerp|отправлено|дата|кому|тема|копия)\s?:\*?(\s|$)/i;

export function isHeaderKeyLine(line: string): boolean {
  return HEADER_KEY.test(line);
}

export const SUBJECT_KEY =
  /^\*?(subject|oggetto|betreff|objet|asunto|assunto|onderwerp|тема)\s?:\*?\s?(.*)$/i;
export const DATE_KEY =
  /^\*?(date|sent|data|inviato|datum|gesendet|envoyé|date d'envoi|enviado el|enviado|enviada em|fecha|verzonden|дата|отправлено)\s?:\*?\s?(.*)$/i;
export const FROM_VALUE = /^\*?(from|da|von|de|van|от)\s?:\*?\s?(.*)$/i;

/** Subject prefixes that make an Outlook header block a forward rather than a reply. */
export const FORWARD_SUBJECT = /^(fw|fwd|wg|tr|i|rv|enc|doorst|пересл)\s?:/i;

/** Outlook's plain-text separator line before the From: block. */
export const UNDERSCORE_RULE = /^_{10,}$/;

export const SIGNATURE_DELIMITER = /^--\s?$/;

/** Mobile client signatures, matched as a whole line (a trailing link is allowed). */
export const MOBILE_SIGNATURE =
  /^(sent from my .{2,40}|sent from (yahoo mail|mail|outlook)( (for|on) .{2,30})?|(ottieni|scarica) outlook per (ios|android)|outlook für (ios|android) herunterladen|obtenir outlook pour (ios|android)|obtener outlook para (ios|android)|sent with proton mail.{0,40}|get outlook for (ios|android)|inviato da (iphone|ipad|il mio .{2,30}|outlook.{0,20}|yahoo mail.{0,20})|von meinem .{2,30} gesendet|envoyé de mon .{2,30}|enviado desde mi .{2,30}|enviado do meu .{2,30}|enviado de meu .{2,30}|verzonden vanaf mijn .{2,30}|verstuurd vanaf mijn .{2,30}|отправлено с .{2,30}|отправлено из .{2,40})\s*(<https?:[^>\s]{1,200}>)?$/i;

/** Polite closings that may open a sign-off block. */
export const SIGN_OFF =
  /^(best|best regards|kind regards|regards|warm regards|many thanks|thanks|thank you|cheers|sincerely|yours|all the best|cordiali saluti|saluti|grazie|un saluto|mit freundlichen grüßen|viele grüße|beste grüße|liebe grüße|gruß|grüße|cordialement|bien à vous|bien cordialement|merci|saludos|un saludo|atentamente|gracias|atenciosamente|abraços|obrigado|obrigada|cumprimentos|met vriendelijke groet|groeten|groet|с уважением|спасибо|всего доброго)[,.!]?$/i;

/** Lines that only a contact block carries: phone, web, address, job title. */
export const CONTACT_LINE =
  /(\+?\d[\d\s().-]{6,}\d)|(https?:\/\/|www\.)|([\w.+-]{1,64}@[\w-]{1,63}\.[\w.-]{2,})|\b(tel|phone|mobile|mob|cell|fax|cellulare|telefono|telefon|téléphone|teléfono|telefone|тел)\b\.?\s?:?|\b(manager|director|engineer|ceo|cto|cfo|coo|vp|vice president|president|founder|head of|officer|coordinator|specialist|consultant|responsabile|direttore|geschäftsführer|leiter|directeur|directora?|gerente|diretor|diretora|директор|менеджер|инженер)\b/i;

/** Words that only confidentiality disclaimers use together. */
export const DISCLAIMER =
  /confidential|intended recipient|privileged|riservat|destinatario|vertraulich|empfänger|confidentiel|destinataire|confidencial|destinatário|vertrouwelijk|geadresseerde|конфиденциальн|адресат/i;

/** Unsubscribe and list-footer phrases. */
export const FOOTER =
  /unsubscribe|opt[- ]out|disiscriv|cancella(re)? l'iscrizione|abmelden|abbestellen|désinscri|désabonn|darse de baja|date de baja|cancelar (a )?inscrição|descadastr|afmelden|uitschrijven|отписаться|отказаться от рассылки|you are receiving this (e-?mail|message)|you received this (e-?mail|message)|manage (your )?(email )?preferences|update your preferences|ricevi questa (e-?mail|newsletter)|sie erhalten diese (e-?mail|nachricht)|vous recevez (cet|ce) (e-?mail|courriel|message)|recibes este (correo|e-?mail|mensaje)|você está recebendo|u ontvangt deze|вы получили это письмо/i;
