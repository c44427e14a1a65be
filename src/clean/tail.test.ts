// Signature, disclaimer and footer detection at the tail of authored runs.
import { describe, expect, it } from 'vitest';
import { splitQuotes } from './quotes.js';
import { splitTails } from './tail.js';

function kindsOf(text: string): (string | null)[] {
  const lines = text.split('\n');
  const { kinds } = splitQuotes(lines);
  splitTails(lines, kinds);
  return kinds;
}

describe('signatures', () => {
  it('starts a signature at the "-- " delimiter', () => {
    expect(kindsOf('Done.\n\n-- \nAlice\nOps team')).toEqual([
      'authored',
      null,
      'signature',
      'signature',
      'signature',
    ]);
  });

  it.each([
    'Sent from my iPhone',
    'Inviato da iPhone',
    'Von meinem iPhone gesendet',
    'Envoyé de mon iPhone',
    'Enviado desde mi iPhone',
    'Enviado do meu iPhone',
    'Verzonden vanaf mijn iPhone',
    'Отправлено с iPhone',
    'Get Outlook for iOS<https://aka.ms/o0ukef>',
    'Get Outlook for Android',
    'Sent from Yahoo Mail on Android',
    'Sent from my Samsung Galaxy smartphone.',
    'Sent with Proton Mail secure email.',
    "Wysłane z iPhone'a",
    'Odesláno z iPhonu',
    'Odoslané z iPhonu',
    'iPhone-ról küldve',
    'Trimis de pe iPhone-ul meu',
    'Lähetetty iPhonesta',
    'Skickat från min iPhone',
    'Sendt fra min iPhone',
    'Στάλθηκε από το iPhone μου',
    "iPhone'umdan gönderildi",
    'נשלח מה-iPhone שלי',
    'أُرسلت من الـ iPhone',
    'iPhoneから送信',
    '发自我的iPhone',
    '從我的 iPhone 傳送',
    '나의 iPhone에서 보냄',
    'Надіслано з iPhone',
    'Изпратено от моя iPhone',
    'Poslano s mog iPhonea',
    'Послато са мог iPhone уређаја',
    'Išsiųsta iš mano iPhone',
    'Sūtīts no mana iPhone',
    "Saadetud minu iPhone'ist",
    'Hanki Outlook for iOS',
    'Skaffa Outlook för Android<https://aka.ms/ghei36>',
    'iOS 版 Outlook を入手',
  ])('recognises the mobile signature "%s"', (signature) => {
    expect(kindsOf(`Ok, go ahead.\n\n${signature}`)).toEqual(['authored', null, 'signature']);
  });

  it('takes name and contact lines after a sign-off, and the sign-off with them', () => {
    const text = 'Price confirmed.\n\nBest regards,\nMark Taylor\nProcurement Manager\nTel: +44 20 7946 0958';
    expect(kindsOf(text)).toEqual(['authored', null, 'signature', 'signature', 'signature', 'signature']);
  });

  /** Sign-offs in the lexicon's languages, each over a card of a name, a role and a phone. */
  const SIGN_OFFS = [
    'Regards,',
    'Cheers,',
    'Mit freundlichen Grüßen',
    'Cordialement,',
    'Pozdrawiam,',
    'S pozdravem',
    'S pozdravom,',
    'Üdvözlettel:',
    'Cu stimă,',
    'Ystävällisin terveisin,',
    'Med vänliga hälsningar',
    'Med vennlig hilsen',
    'Med venlig hilsen',
    'Bestu kveðjur,',
    'Με εκτίμηση,',
    'Saygılarımla,',
    'בברכה,',
    'مع التحية،',
    'よろしくお願いいたします。',
    '此致',
    '감사합니다.',
    'З повагою,',
    'С уважение,',
    'S poštovanjem,',
    'Lep pozdrav,',
    'Pagarbiai,',
    'Ar cieņu,',
    'Lugupidamisega',
    'Mit freundlichen Grüßen / Best regards',
  ];

  it.each(SIGN_OFFS)('"%s" joins the card that follows it', (signOff) => {
    const text = `Price confirmed.\n\n${signOff}\nJan Kowalski\nSales Manager\n+48 22 123 45 67`;
    expect(kindsOf(text)).toEqual(['authored', null, 'signature', 'signature', 'signature', 'signature']);
  });

  it.each(SIGN_OFFS)('"%s" that ends the message stays authored', (signOff) => {
    expect(kindsOf(`Price confirmed.\n\n${signOff}`)).toEqual(['authored', null, 'authored']);
  });

  it('joins a sign-off to the card after a blank line, and to a signature container', () => {
    expect(kindsOf('Done.\n\nPozdrawiam,\n\nJan Kowalski\nKierownik\ntel. +48 22 123 45 67')).toEqual([
      'authored',
      null,
      'signature',
      null,
      'signature',
      'signature',
      'signature',
    ]);
    const lines = ['Done.', '', 'Terveisin,', 'Matti Virtanen', 'Myyntipäällikkö', '+358 40 123 4567'];
    const kinds = splitQuotes(lines, [null, null, null, 'signature', 'signature', 'signature']).kinds;
    splitTails(lines, kinds);
    expect(kinds).toEqual(['authored', null, 'signature', 'signature', 'signature', 'signature']);
  });

  it("keeps a sign-off before a mailing list's footer authored", () => {
    const text =
      'Acked.\nThanks!\n\n--\nTo leave this list, send "unsubscribe example-dev" to lists@example.org\nArchive: https://lists.example.org/dev';
    expect(kindsOf(text).slice(0, 2)).toEqual(['authored', 'authored']);
  });

  it('keeps a sign-off before a mobile line authored', () => {
    expect(kindsOf("Done.\n\nPozdrawiam\n\nWysłane z iPhone'a")).toEqual([
      'authored',
      null,
      'authored',
      null,
      'signature',
    ]);
  });

  /** Line kinds in short: a authored, s signature, - blank. */
  const short = (text: string): string =>
    kindsOf(text)
      .map((k) => (k === null ? '-' : (k as string)[0]))
      .join('');

  it.each([
    ['Price confirmed.\n\nThanks,\nMark', 'a-ss'],
    ['Prijs bevestigd.\n\nMet vriendelijke groet,\n\nPieter van der Berg', 'a-s-s'],
    ['Rendben.\n\nÜdvözlettel:\nTóth Anna\nÉrtékesítési asszisztens\nDunamenti Kft.', 'a-ssss'],
    ['Ok.\n\n祝好，\n李明', 'a-ss'],
    ['Ok.\n\n감사합니다.\n이준호 드림', 'a-ss'],
    ['Ok.\n\nمع التحية،\nليلى حسن', 'a-ss'],
    ['Ok.\n\nПоздрави,\nНенад Петровић', 'a-ss'],
    // A sign-off and a name above a "-- " signature go with it.
    ['Ok.\n\nAmicalement,\nBernard\n\n-- \nBernard Petit\nAtelier Petit', 'a-ss-sss'],
    // An inline reply's last answer is signed below the quote.
    ['Yes.\n\n> Friday?\n\nCheers,\nJonas', 'a-q-ss'],
  ])('takes a sign-off and the name typed under it: %j', (text, kinds) => {
    expect(short(text)).toBe(kinds);
  });

  it('keeps a sign-off and a name that are the whole message authored', () => {
    expect(short('Thanks,\nMark')).toBe('aa');
  });

  it.each([
    'Thanks,\nsee you Monday',
    'Thanks,\nSee you on Monday.',
    'Cheers,\nI will call you tomorrow',
    'Thanks,\nMark\nPS: the invoice is attached, see page two.',
    'Thanks,\nMark\nCall me when you land?',
  ])('keeps a last sentence after a sign-off authored: %j', (tail) => {
    expect(kindsOf(`Price confirmed.\n\n${tail}`).every((k) => k !== 'signature')).toBe(true);
  });

  it('takes a closing card that clients append without a sign-off', () => {
    const text =
      'Our corrugator went down on Monday.\n\nMike Dorsey\nAccount Manager\nKestrel Packaging Inc. | 2200 Industrial Pkwy, Dayton OH\n(937) 555-0144';
    expect(kindsOf(text)).toEqual(['authored', null, 'signature', 'signature', 'signature', 'signature']);
    expect(kindsOf('Option B.\n\nDavid Chen\nVP Sales & Marketing | Acme Corp')).toEqual([
      'authored',
      null,
      'signature',
      'signature',
    ]);
    expect(kindsOf('Груз выгружен.\n\nОльга Смирнова\nменеджер по логистике\nтел. +7 495 123-45-67')).toEqual(
      ['authored', null, 'signature', 'signature', 'signature'],
    );
  });

  it('keeps what only looks like a card: a name alone, prose, an address to ship to, a card with nothing to sign', () => {
    expect(kindsOf('Done.\n\nTom')).toEqual(['authored', null, 'authored']);
    expect(kindsOf('Done.\n\nCall Tom Becker at +1 555 0100 if anything changes.')).toEqual([
      'authored',
      null,
      'authored',
    ]);
    expect(kindsOf('Please ship to:\n\nAcme Corp\nWarehouse B, Dock 3')).toEqual([
      'authored',
      null,
      'authored',
      'authored',
    ]);
    expect(kindsOf('Mike Dorsey\nAccount Manager\n(937) 555-0144')).toEqual([
      'authored',
      'authored',
      'authored',
    ]);
  });

  it.each(['Wysłane z biura wczoraj', 'Lähetetty eilen', 'Skickat från kontoret'])(
    'keeps "%s" authored: a sent-from phrase names no device',
    (line) => {
      expect(kindsOf(`Ok, go ahead.\n\n${line}`)).toEqual(['authored', null, 'authored']);
    },
  );

  it('does not take a mobile phrase inside a sentence', () => {
    expect(kindsOf('Sorry for typos, sent from my iPhone while walking to the station')).toEqual([
      'authored',
    ]);
  });
});

describe('disclaimers', () => {
  const legal =
    'This email and any attachments are confidential and intended solely for the addressee. If you are not the intended recipient, please delete it and notify the sender.';

  it('marks a trailing confidentiality paragraph', () => {
    expect(kindsOf(`Invoice attached.\n\n${legal}`)).toEqual(['authored', null, 'disclaimer']);
  });

  it.each([
    'Questo messaggio e i suoi allegati sono riservati e destinati esclusivamente al destinatario indicato. Se lo avete ricevuto per errore, vi preghiamo di cancellarlo e di avvisare il mittente.',
    'Diese E-Mail enthält vertrauliche Informationen und ist nur für den angegebenen Empfänger bestimmt. Wenn Sie nicht der richtige Adressat sind, informieren Sie bitte sofort den Absender.',
    'Ce message et ses pièces jointes sont confidentiels et destinés exclusivement au destinataire. Si vous avez reçu ce message par erreur, merci de le supprimer et de prévenir l’expéditeur.',
    'Это сообщение и любые вложения конфиденциальны и предназначены только для указанного адресата. Если вы получили его по ошибке, пожалуйста, удалите его и сообщите отправителю об этом.',
  ])('marks a disclaimer in another language', (text) => {
    expect(kindsOf(`Ok.\n\n${text}`)).toEqual(['authored', null, 'disclaimer']);
  });

  it('keeps a short sentence that mentions confidentiality', () => {
    expect(kindsOf('Numbers attached.\n\nPlease keep this confidential until Friday.')).toEqual([
      'authored',
      null,
      'authored',
    ]);
  });
});

describe('footers', () => {
  it('marks an unsubscribe footer and what follows it', () => {
    const text =
      'New arrivals this week.\n\nShop now\n\nYou are receiving this email because you subscribed.\n\nUnsubscribe | Preferences\n\nExample Ltd, London';
    expect(kindsOf(text)).toEqual([
      'authored',
      null,
      'authored',
      null,
      'footer',
      null,
      'footer',
      null,
      'footer',
    ]);
  });

  it('keeps a personal request to be unsubscribed', () => {
    expect(kindsOf('Hi,\n\nPlease unsubscribe me from this list.\n\nThanks')).toEqual([
      'authored',
      null,
      'authored',
      null,
      'authored',
    ]);
  });
});
