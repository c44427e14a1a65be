// Quote and forward detection on plain-text lines, one table per detector and language.
import { describe, expect, it } from 'vitest';
import { splitQuotes } from './quotes.js';

const kindsOf = (text: string): (string | null)[] => splitQuotes(text.split('\n')).kinds;

/**
 * Reply headers with a date and a time (most with an address), one or two per language, in the
 * shapes Thunderbird, Gmail and Outlook write them (see lexicon.ts for where those come from).
 */
const DATED_HEADERS: readonly (readonly [string, string])[] = [
  ['pl (Thunderbird)', 'W dniu 4.03.2024 o 10:12, Jan Kowalski pisze:'],
  ['pl (Gmail)', 'pon., 4 mar 2024 o 10:12 Jan Kowalski <jan@example.pl> napisał(a):'],
  ['pl (Outlook)', 'Dnia 4 marca 2024 10:12 „Jan Kowalski” <jan@example.pl> napisał:'],
  ['cs (Thunderbird)', 'Dne 4. 3. 2024 v 10:12 Petr Novák napsal(a):'],
  ['cs (Gmail)', 'po 4. 3. 2024 v 10:12 odesílatel Petr Novák <petr@example.cz> napsal:'],
  ['sk (Thunderbird)', 'Dňa 4. 3. 2024 o 10:12 Ján Horváth napísal(a):'],
  ['sk (Gmail)', 'po 4. 3. 2024 o 10:12 Ján Horváth <jan@example.sk> napísal(a):'],
  ['hu (Thunderbird)', '2024. 03. 04. 10:12 keltezéssel, Kovács Anna írta:'],
  ['hu (Gmail)', 'Kovács Anna <anna@example.hu> ezt írta (időpont: 2024. márc. 4., H, 10:12):'],
  ['ro (Thunderbird)', 'La 04.03.2024 10:12, Ion Popescu a scris:'],
  ['ro (Gmail)', 'În lun., 4 mar. 2024 la 10:12, Ion Popescu <ion@example.ro> a scris:'],
  ['fi (Thunderbird)', 'Matti Virtanen kirjoitti 4.3.2024 klo 10.12:'],
  ['fi (Gmail)', 'ma 4.3.2024 klo 10.12 Matti Virtanen (matti@example.fi) kirjoitti:'],
  ['sv (Thunderbird)', 'Den 2024-03-04 kl. 10:12, skrev Erik Lund:'],
  ['sv (Gmail)', 'mån 4 mars 2024 kl 10:12 skrev Erik Lund <erik@example.se>:'],
  ['no (Thunderbird)', 'Den 04.03.2024 10:12, skrev Ola Nordmann:'],
  ['no (Gmail)', 'man. 4. mar. 2024 kl. 10:12 skrev Ola Nordmann <ola@example.no>:'],
  ['da (Thunderbird)', 'Den 04.03.2024 kl. 10.12 skrev Mette Hansen:'],
  ['da (Gmail)', 'man. 4. mar. 2024 kl. 10.12 skrev Mette Hansen <mette@example.dk>:'],
  ['is (Thunderbird)', 'Þann 4.3.2024 10:12, skrifaði Jón Jónsson:'],
  ['el (Thunderbird)', 'Στις 4/3/2024 10:12 π.μ., ο/η Γιώργος Παπαδόπουλος έγραψε:'],
  ['el (Gmail)', 'Στις Δευ 4 Μαρ 2024 στις 10:12, ο/η Γιώργος Παπαδόπουλος <giorgos@example.gr> έγραψε:'],
  ['tr (Thunderbird)', '4.03.2024 10:12 tarihinde Ayşe Yılmaz yazdı:'],
  ['tr (Gmail)', 'Ayşe Yılmaz <ayse@example.com.tr>, 4 Mar 2024 Pzt, 10:12 tarihinde şunu yazdı:'],
  ['he (Gmail)', 'בתאריך יום ב׳, 4 במרץ 2024 ב-10:12 מאת דנה כהן <dana@example.co.il>:'],
  ['ar (Thunderbird)', 'على 04/03/2024 10:12، كتب سارة أحمد:'],
  ['ar (Gmail)', 'في الاثنين، ٤ مارس ٢٠٢٤ في ١٠:١٢ ص، كتب سارة أحمد <sara@example.com>:'],
  ['ja (Gmail)', '2024年3月4日(月) 10:12 山田太郎 <taro@example.jp>:'],
  ['zh (Thunderbird)', '在 2024/3/4 10:12, 张伟 写道:'],
  ['zh (Gmail)', '张伟 <wei@example.cn> 于2024年3月4日周一 10:12写道：'],
  ['zh-TW (Gmail)', '陳小明 <ming@example.tw> 於 2024年3月4日 週一 上午10:12寫道：'],
  ['ko (Thunderbird)', '2024-03-04 10:12에 김민수 이(가) 쓴 글:'],
  ['ko (Gmail)', '2024년 3월 4일 (월) 오전 10:12, 김민수 <minsu@example.kr>님이 작성:'],
  ['uk (Gmail)', 'пн, 4 бер. 2024 р. о 10:12 Олена Шевченко <olena@example.ua> пише:'],
  ['bg (Thunderbird)', 'На 4.03.2024 г. в 10:12, Иван Петров написа:'],
  ['bg (Gmail)', 'пн, 4.03.2024 г. в 10:12 ч. Иван Петров <ivan@example.bg> написа:'],
  ['hr (Thunderbird)', '4.3.2024. u 10:12, Ana Horvat piše:'],
  ['hr (Gmail)', 'pon, 4. ožu 2024. u 10:12 Ana Horvat <ana@example.hr> napisao je:'],
  ['sr (Thunderbird)', 'Дана 4.3.2024. у 10:12, Марко Петровић пише:'],
  ['sl (Thunderbird)', 'Janez Novak je 4. 3. 2024 ob 10:12 napisal:'],
  ['lt (Thunderbird)', '2024-03-04 10:12, Jonas Jonaitis rašė:'],
  [
    'lv (Gmail)',
    'pirmd., 2024. g. 4. marts, plkst. 10:12 — lietotājs Jānis Bērziņš (<janis@example.lv>) rakstīja:',
  ],
  ['et (Thunderbird)', '04.03.2024 10:12 Mari Tamm kirjutas:'],
  ['vi (Thunderbird)', 'Vào lúc 10:12 04/03/2024, Nguyễn Văn An đã viết:'],
  ['id (Thunderbird)', 'Pada 04/03/2024 10:12, Budi Santoso menulis:'],
  ['sv (Outlook)', 'Den 4 mars 2024 10:12 skrev "Erik Lund" <erik@example.se> följande:'],
  ['no (Outlook)', 'Ola Nordmann <ola@example.no> skrev følgende den 4. mars 2024 10:12:'],
  ['hu (Outlook)', '2024. márc. 4. 10:12 időpontban Kovács Anna (<anna@example.hu>) ezt írta:'],
  ['nl (Outlook)', 'Op 4 mrt. 2024 om 10:12 heeft Jan de Vries <jan@example.nl> het volgende geschreven:'],
  ['sk (Outlook)', '4. 3. 2024 10:12 používateľ Ján Horváth (<jan@example.sk>) napísal:'],
  ['ru (Outlook)', '4 марта 2024 г. 10:12 пользователь "Иван Петров" <ivan@example.ru> написал:'],
];

describe('attribution lines', () => {
  it.each<readonly [string, string]>([
    ['en', 'On Mon, Mar 4, 2024 at 10:12 AM Bob Smith <bob@example.com> wrote:'],
    ['it', 'Il giorno lun 4 mar 2024 alle ore 10:12 Mario Rossi <mario@example.it> ha scritto:'],
    ['de', 'Am 04.03.2024 um 10:12 schrieb Hans Müller <hans@example.de>:'],
    ['fr', 'Le lun. 4 mars 2024 à 10:12, Jean Dupont <jean@example.fr> a écrit :'],
    ['es', 'El lun, 4 mar 2024 a las 10:12, Juan Pérez (<juan@example.es>) escribió:'],
    ['pt', 'Em seg., 4 de mar. de 2024 às 10:12, João Silva <joao@example.pt> escreveu:'],
    ['nl', 'Op ma 4 mrt 2024 om 10:12 schreef Jan de Vries <jan@example.nl>:'],
    ['ru', '4 марта 2024 г., в 10:12, Иван Петров <ivan@example.ru> написал(а):'],
    ['ru (Gmail, no verb)', 'пн, 4 мар. 2024 г. в 10:12, Иван Петров <ivan@example.ru>:'],
    ...DATED_HEADERS,
    ['uk (Thunderbird, no date)', 'Олена Шевченко написав:'],
    ['el (Thunderbird, no date)', 'Ο/Η Γιώργος Παπαδόπουλος έγραψε:'],
    ['ko (Thunderbird, no date)', '김민수 이(가) 쓴 글:'],
    ['zh (Thunderbird, no date)', '张伟 写道:'],
    [
      'sw (any language)',
      'Mnamo Jumatatu, 4 Machi 2024 saa 10:12, Juma Mwangi <juma@example.co.tz> aliandika:',
    ],
  ])('%s: the attribution and the quote are quoted, the reply authored', (_lang, attribution) => {
    expect(kindsOf(`Reply text.\n\n${attribution}\n> quoted line`)).toEqual([
      'authored',
      null,
      'quoted',
      'quoted',
    ]);
  });

  it.each(DATED_HEADERS)(
    '%s: a dated attribution starts the history even when nothing is quoted',
    (_l, header) => {
      expect(kindsOf(`Yes.\n${header}\nunquoted old text`)).toEqual(['authored', 'quoted', 'quoted']);
    },
  );

  it.each([
    ['fi (Gmail)', 'ma 4.3.2024 klo 10.12 Matti Virtanen', '<matti.virtanen@example.fi> kirjoitti:'],
    [
      'no (Gmail, address cut at >)',
      'man. 4. mar. 2024 kl. 10:12 skrev Ola Nordmann <ola.nordmann@example.no',
      '>:',
    ],
    [
      'he (Gmail, address cut at <)',
      'בתאריך יום ב׳, 4 במרץ 2024, 10:12, מאת דנה כהן <',
      'dana.cohen@example.co.il>:',
    ],
    ['hu (Gmail)', 'Kovács Anna <anna.kovacs@example.hu> ezt írta (időpont: 2024. márc.', '4., H, 10:12):'],
    [
      'tr (Gmail)',
      'Ayşe Yılmaz <ayse.yilmaz@example.com.tr>, 4 Mar 2024 Pzt, 10:12',
      'tarihinde şunu yazdı:',
    ],
    ['cs (Gmail)', 'po 4. 3. 2024 v 10:12 odesílatel Petr Novák <petr.novak@example.cz>', 'napsal:'],
    [
      'lv (Gmail)',
      'pirmd., 2024. g. 4. marts, plkst. 10:12 — lietotājs Jānis Bērziņš',
      '(<janis.berzins@example.lv>) rakstīja:',
    ],
    [
      'sw (any language)',
      'Mnamo Jumatatu, 4 Machi 2024 saa 10:12, Juma Mwangi',
      '<juma.mwangi@example.co.tz> aliandika:',
    ],
  ])('%s: joins an attribution the client wrapped over two lines', (_lang, first, second) => {
    expect(kindsOf(`Fine.\n\n${first}\n${second}\n\n> Ok?`)).toEqual([
      'authored',
      null,
      'quoted',
      'quoted',
      null,
      'quoted',
    ]);
  });

  it.each([
    ['he', 'בתאריך יום ב׳, 4 במרץ 2024, 10:12, מאת דנה כהן <', 'dana.cohen@example.co.il>:'],
    ['ru', 'пн, 4 мар. 2024 г. в 10:12, Иван Петров <', 'ivan.petrov@example.ru>:'],
  ])('%s: a Gmail header wrapped inside its address still starts the history', (_lang, first, second) => {
    expect(kindsOf(`Yes.\n${first}\n${second}\nunquoted old text`)).toEqual([
      'authored',
      'quoted',
      'quoted',
      'quoted',
    ]);
  });

  it("reads Gmail's right-to-left header through its direction marks", () => {
    const header =
      '\u202bבתאריך יום ב׳, 4 במרץ 2024 ב-10:12 מאת \u202aדנה כהן\u202c <\u202adana@example.co.il\u202c>:\u202c';
    expect(kindsOf(`תודה.\n${header}\nטקסט ישן`)).toEqual(['authored', 'quoted', 'quoted']);
  });

  it('joins an attribution wrapped over two lines', () => {
    const text = 'Fine.\n\nOn Mon, Mar 4, 2024 at 10:12 AM Bob Smith <bob@example.com>\nwrote:\n\n> Ok?';
    expect(kindsOf(text)).toEqual(['authored', null, 'quoted', 'quoted', null, 'quoted']);
  });

  it('treats a dated attribution with nothing quoted after it as the start of history', () => {
    const text = 'Yes.\nOn Mon, Mar 4, 2024 at 10:12 AM Bob <bob@example.com> wrote:\nunquoted old text';
    expect(kindsOf(text)).toEqual(['authored', 'quoted', 'quoted']);
  });

  it.each([
    [
      'quoted',
      'Je 2024-03-04 10:12, Petro Zamenhof <petro@example.org> skribis:',
      '> Saluton!\n> Kiel vi fartas?',
    ],
    [
      'indented',
      'Je 2024-03-04 10:12, Petro Zamenhof <petro@example.org> skribis:',
      '    Saluton!\n    Kiel vi fartas?',
    ],
    [
      'header-like',
      'Petro Zamenhof <petro@example.org> 2024-03-04:',
      'From: Ana <ana@example.org>\nSubject: Kunveno',
    ],
  ])(
    'any language: a colon line with an address or a date before %s text starts the quote',
    (_f, header, after) => {
      const kinds = kindsOf(`Dankon.\n\n${header}\n${after}`);
      expect(kinds.slice(0, 2)).toEqual(['authored', null]);
      expect(kinds.slice(2)).toEqual(['quoted', 'quoted', 'quoted']);
    },
  );

  it.each([
    [
      'an addressed heading before an indented list',
      'Meeting on 4.3.2024 with anna@example.com:\n  - budget\n  2) staff',
    ],
    [
      'a dated log line before its indented trace',
      'Crash at 2024-03-04 10:12:\n    Traceback (most recent call last):\n      File "sync.py"',
    ],
    ['a dated heading before indented prose, no time or address', 'Meeting on 4.3.2024:\n  Agenda follows.'],
    ['a dated heading before prose', 'The plan for 2024:\nBudget is fine.'],
    ['an address before prose', 'Please write to anna@example.com:\nshe handles it.'],
    ['a colon line with nothing after it', 'Delivered on 4.3.2024 to anna@example.com:'],
  ])('any language: keeps %s authored', (_case, text) => {
    expect(kindsOf(text).every((k) => k === 'authored' || k === null)).toBe(true);
  });

  it('does not join a short line into a wrapped header without a verb', () => {
    expect(kindsOf('Call me on 0100\nor write to bob@example.com:\n> the question')).toEqual([
      'authored',
      'quoted',
      'quoted',
    ]);
  });

  it('keeps "she wrote:" in prose as authored', () => {
    const text =
      'On Monday we met and she wrote: the plan is fine.\nOn the call she wrote:\n  "steel arrives Friday"';
    expect(kindsOf(text)).toEqual(['authored', 'authored', 'authored']);
  });
});

describe('inline replies', () => {
  it('keeps every authored line between quoted blocks', () => {
    const text = '> Question one?\nAnswer one.\n> Question two?\n\nAnswer two.';
    expect(kindsOf(text)).toEqual(['quoted', 'authored', 'quoted', null, 'authored']);
  });
});

describe('Outlook header blocks and separators', () => {
  it.each([
    ['en', 'From: Bob <b@x.com>\nSent: Monday\nTo: Alice\nSubject: Hello'],
    ['it', 'Da: Mario <m@x.it>\nInviato: lunedì\nA: Giulia\nOggetto: Ciao'],
    ['de', 'Von: Hans <h@x.de>\nGesendet: Montag\nAn: Petra\nBetreff: Hallo'],
    ['fr', 'De : Jean <j@x.fr>\nEnvoyé : lundi\nÀ : Claire\nObjet : Bonjour'],
    ['es', 'De: Juan <j@x.es>\nEnviado el: lunes\nPara: Marta\nAsunto: Hola'],
    ['pt', 'De: João <j@x.pt>\nEnviada em: segunda-feira\nPara: Ana\nAssunto: Olá'],
    ['nl', 'Van: Jan <j@x.nl>\nVerzonden: maandag\nAan: Sanne\nOnderwerp: Hoi'],
    ['ru', 'От: Иван <i@x.ru>\nОтправлено: понедельник\nКому: Ольга\nТема: Привет'],
    ['pl', 'Od: Jan <j@x.pl>\nWysłane: poniedziałek, 4 marca 2024 10:12\nDo: Anna\nTemat: Oferta'],
    ['cs', 'Od: Petr <p@x.cz>\nOdesláno: pondělí 4. března 2024 10:12\nKomu: Jana\nPředmět: Nabídka'],
    ['sk', 'Od: Ján <j@x.sk>\nOdoslané: pondelok 4. marca 2024 10:12\nKomu: Eva\nPredmet: Ponuka'],
    ['hu', 'Feladó: Anna <a@x.hu>\nElküldve: 2024. március 4., hétfő 10:12\nCímzett: Péter\nTárgy: Ajánlat'],
    ['ro', 'De la: Ion <i@x.ro>\nTrimis: luni, 4 martie 2024 10:12\nCătre: Maria\nSubiect: Ofertă'],
    [
      'fi',
      'Lähettäjä: Matti <m@x.fi>\nLähetetty: maanantai 4. maaliskuuta 2024 10.12\nVastaanottaja: Liisa\nAihe: Tarjous',
    ],
    ['sv', 'Från: Erik <e@x.se>\nSkickat: den 4 mars 2024 10:12\nTill: Anna\nÄmne: Offert'],
    ['no/da', 'Fra: Ola <o@x.no>\nSendt: mandag 4. mars 2024 10:12\nTil: Kari\nEmne: Tilbud'],
    ['is', 'Frá: Jón <j@x.is>\nSent: mánudagur, 4. mars 2024 10:12\nTil: Anna\nEfni: Tilboð'],
    ['el', 'Από: Γιώργος <g@x.gr>\nΣτάλθηκε: Δευτέρα, 4 Μαρτίου 2024 10:12 πμ\nΠρος: Μαρία\nΘέμα: Προσφορά'],
    ['tr', 'Kimden: Ayşe <a@x.com.tr>\nGönderildi: 4 Mart 2024 Pazartesi 10:12\nKime: Mehmet\nKonu: Teklif'],
    ['he', 'מאת: דנה <d@x.co.il>\nנשלח: יום שני 04 מרץ 2024 10:12\nאל: יוסי\nנושא: הצעה'],
    ['ar', 'من: سارة <s@x.com>\nتم الإرسال: الاثنين، 4 مارس 2024 10:12 ص\nإلى: أحمد\nالموضوع: عرض'],
    ['ja', '差出人: 山田太郎 <t@x.jp>\n送信日時: 2024年3月4日 10:12\n宛先: 佐藤花子\n件名: 見積もり'],
    [
      'zh (full-width colons)',
      '发件人：张伟 <w@x.cn>\n发送时间：2024年3月4日 10:12\n收件人：李娜\n主题：报价',
    ],
    ['zh-TW', '寄件者: 陳小明 <m@x.tw>\n寄件日期: 2024年3月4日 上午 10:12\n收件者: 林美玲\n主旨: 報價'],
    [
      'ko',
      '보낸 사람: 김민수 <m@x.kr>\n보낸 날짜: 2024년 3월 4일 월요일 오전 10:12\n받는 사람: 이지은\n제목: 견적',
    ],
    ['uk', 'Від: Олена <o@x.ua>\nНадіслано: 4 березня 2024 р. 10:12\nКому: Андрій\nТема: Пропозиція'],
    ['bg', 'От: Иван <i@x.bg>\nИзпратено: понеделник, 4 март 2024 г. 10:12\nДо: Мария\nОтносно: Оферта'],
    ['hr', 'Šalje: Ana <a@x.hr>\nPoslano: ponedjeljak, 4. ožujka 2024. 10:12\nPrima: Ivan\nPredmet: Ponuda'],
    ['sr', 'Од: Марко <m@x.rs>\nПослато: понедељак, 4. март 2024. 10:12\nЗа: Јована\nТема: Понуда'],
    ['sl', 'Od: Janez <j@x.si>\nPoslano: ponedeljek, 4. marec 2024 10:12\nZa: Maja\nZadeva: Ponudba'],
    ['lt', 'Nuo: Jonas <j@x.lt>\nIšsiųsta: 2024 m. kovo 4 d. 10:12\nKam: Rūta\nTema: Pasiūlymas'],
    [
      'lv',
      'No: Jānis <j@x.lv>\nNosūtīts: pirmdiena, 2024. gada 4. martā 10:12\nKam: Anna\nTēma: Piedāvājums',
    ],
    [
      'et',
      'Saatja: Mari <m@x.ee>\nSaadetud: esmaspäev, 4. märts 2024 10:12\nAdressaat: Jaan\nTeema: Pakkumine',
    ],
  ])('%s: the header block starts the quoted history', (_lang, block) => {
    const kinds = kindsOf(`Reply.\n\n${block}\n\nOld text.`);
    expect(kinds[0]).toBe('authored');
    expect(kinds.slice(2).filter((k) => k !== null)).toEqual(Array(5).fill('quoted'));
  });

  it.each([
    '-----Original Message-----',
    '-----Messaggio originale-----',
    '-----Ursprüngliche Nachricht-----',
    "-----Message d'origine-----",
    '-----Mensaje original-----',
    '-----Mensagem original-----',
    '-----Oorspronkelijk bericht-----',
    '-----Исходное сообщение-----',
    '----- Mail original -----',
    '--- Treść oryginalnej wiadomości ---',
    '-----Oryginalna wiadomość-----',
    '-------- Původní zpráva --------',
    '-------- Pôvodná správa --- Original Message --------',
    '-------- Eredeti üzenet --------',
    '-------- Mesajul original --------',
    '-------- Alkuperäinen viesti / Orig.Msg. --------',
    '-------- Ursprungligt meddelande --------',
    '-------- Opprinnelig melding --------',
    '-------- Oprindelig meddelelse --------',
    '-------- Upprunalegur póstur --------',
    '-------- Αρχικό μήνυμα --------',
    '-------- Özgün İleti --------',
    '-------- הודעה מקורית --------',
    '-------- الرسالة الأصليَّة --------',
    '-------- 原始消息 --------',
    '------- 原始郵件 -------',
    '-----邮件原件-----',
    '------------------ 原始邮件 ------------------',
    '--------    원본 메시지    --------',
    '-------- Початкове повідомлення --------',
    '-------- Оригинално писмо --------',
    '-------- Izvorna poruka --------',
    '-------- Изворна порука --------',
    '-------- Izvirno sporočilo --------',
    '-------- Originalus laiškas --------',
    '-------- Sākotnējā vēstule --------',
    '-------- Algne kiri --------',
  ])('%s starts the quoted history', (separator) => {
    expect(kindsOf(`Reply.\n${separator}\nold text`)).toEqual(['authored', 'quoted', 'quoted']);
  });

  it('keeps prose lines that start with From:/To:/Subject without a header block', () => {
    const text = 'From: the count we have 412 left.\nTo: be safe I reordered.\nSubject to approval.';
    expect(kindsOf(text)).toEqual(['authored', 'authored', 'authored']);
  });

  it('makes an Outlook block whose subject is a forward a forwarded block', () => {
    const split = splitQuotes(
      'See below.\n\nFrom: Desk <d@x.com>\nSent: Friday\nTo: Me\nSubject: FW: Hold\n\nShipment held.'.split(
        '\n',
      ),
    );
    expect(split.kinds[2]).toBe('forwarded');
    expect(split.forwarded).toEqual([
      { from: 'Desk <d@x.com>', date: 'Friday', subject: 'FW: Hold', text: 'Shipment held.' },
    ]);
  });
});

describe('forward subject prefixes', () => {
  it.each(['FW', 'Fwd', 'WG', 'TR', 'I', 'RV', 'ENC', 'PD', 'VB', 'VL', 'VS', 'Videresend', 'Redir.', 'İLT'])(
    'reads a header block whose subject starts with %s: as a forward',
    (prefix) => {
      const split = splitQuotes(
        `See below.\n\nFrom: Desk <d@x.com>\nSent: Friday\nTo: Me\nSubject: ${prefix}: Hold\n\nHeld.`.split(
          '\n',
        ),
      );
      expect(split.kinds[2]).toBe('forwarded');
    },
  );

  it('reads a reply prefix as a reply', () => {
    const split = splitQuotes(
      'Ok.\n\nOd: Jan <j@x.pl>\nWysłane: piątek\nDo: Ja\nTemat: ODP: Oferta\n\nStara.'.split('\n'),
    );
    expect(split.kinds[2]).toBe('quoted');
  });
});

describe('forward markers', () => {
  it.each([
    ['en', 'Begin forwarded message:', 'From', 'Date', 'Subject'],
    ['en', '---------- Forwarded message ---------', 'From', 'Date', 'Subject'],
    ['en', '-------- Forwarded Message --------', 'From', 'Date', 'Subject'],
    ['it', 'Inizio messaggio inoltrato:', 'Da', 'Data', 'Oggetto'],
    ['it', '---------- Messaggio inoltrato ---------', 'Da', 'Date', 'Subject'],
    ['de', 'Anfang der weitergeleiteten Nachricht:', 'Von', 'Datum', 'Betreff'],
    ['de', '---------- Weitergeleitete Nachricht ---------', 'Von', 'Date', 'Subject'],
    ['fr', 'Début du message réexpédié :', 'De', 'Date', 'Objet'],
    ['fr', '---------- Message transféré ---------', 'De', 'Date', 'Subject'],
    ['es', 'Inicio del mensaje reenviado:', 'De', 'Fecha', 'Asunto'],
    ['es', '---------- Mensaje reenviado ---------', 'De', 'Date', 'Subject'],
    ['pt', 'Início da mensagem reencaminhada:', 'De', 'Data', 'Assunto'],
    ['pt', '---------- Mensagem encaminhada ---------', 'De', 'Date', 'Subject'],
    ['nl', 'Begin doorgestuurd bericht:', 'Van', 'Datum', 'Onderwerp'],
    ['nl', '---------- Doorgestuurd bericht ---------', 'Van', 'Date', 'Subject'],
    ['ru', '-------- Пересылаемое сообщение --------', 'От', 'Дата', 'Тема'],
    ['pl', 'Początek przekazywanej wiadomości:', 'Od', 'Data', 'Temat'],
    ['pl', '---------- Przekazana wiadomość ---------', 'Od', 'Date', 'Subject'],
    ['pl', '--- Treść przekazanej wiadomości ---', 'Nadawca', 'Data', 'Temat'],
    ['cs', 'Začátek přeposílané zprávy:', 'Od', 'Datum', 'Předmět'],
    ['cs', '-------- Přeposlaná zpráva --------', 'Od', 'Datum', 'Předmět'],
    ['sk', 'Začiatok preposlanej správy:', 'Od', 'Dátum', 'Predmet'],
    ['hu', 'Továbbított levél kezdete:', 'Feladó', 'Dátum', 'Tárgy'],
    ['hu', '-------- Továbbított üzenet --------', 'Feladó', 'Dátum', 'Tárgy'],
    ['ro', 'Începe mesajul redirecționat:', 'De la', 'Dată', 'Subiect'],
    ['fi', 'Välitetty viesti alkaa:', 'Lähettäjä', 'Päivämäärä', 'Aihe'],
    ['fi', '-------- Välitetty viesti / Fwd.Msg --------', 'Lähettäjä', 'Päiväys', 'Aihe'],
    ['sv', 'Vidarebefordrat mejl:', 'Från', 'Datum', 'Ämne'],
    ['sv', '-------- Vidarebefordrat meddelande --------', 'Från', 'Datum', 'Ämne'],
    ['no', 'Videresendt melding:', 'Fra', 'Dato', 'Emne'],
    ['da', 'Start på videresendt besked:', 'Fra', 'Dato', 'Emne'],
    ['is', '-------- Áframsendur póstur --------', 'Frá', 'Dagsetning', 'Viðfangsefni'],
    ['el', '-------- Προωθημένο μήνυμα --------', 'Από', 'Ημερομηνία', 'Θέμα'],
    ['tr', 'İleti başlangıcı:', 'Kimden', 'Tarih', 'Konu'],
    ['tr', '-------- İletilen İleti --------', 'Kimden', 'Tarih', 'Konu'],
    ['he', '-------- הודעה שהועברה --------', 'מאת', 'תאריך', 'נושא'],
    ['ar', '-------- رسالة ممرّرة --------', 'مِن', 'التاريخ', 'الموضوع'],
    ['zh', '-------- 转发的消息 --------', '发件人', '日期', '主题'],
    ['zh-TW', '-------- 轉寄郵件 --------', '從', '日期', '主旨'],
    ['ko', '-------- 전달된 메시지 --------', '보낸 사람', '날짜', '제목'],
    ['uk', 'Початок листа, що пересилається:', 'Від кого', 'Дата', 'Тема'],
    ['uk', '-------- Переслане повідомлення --------', 'Від', 'Дата', 'Тема'],
    ['bg', '-------- Препратено писмо --------', 'От', 'Дата', 'Тема'],
    ['hr', 'Započni proslijeđenu poruku:', 'Šalje', 'Datum', 'Predmet'],
    ['sr', '-------- Прослеђена порука --------', 'Шаље', 'Датум', 'Тема'],
    ['sl', '-------- Posredovano sporočilo --------', 'Od', 'Datum', 'Zadeva'],
    ['lt', '-------- Persiųstas laiškas --------', 'Kas', 'Data', 'Tema'],
    ['lv', '-------- Pārsūtītā vēstule --------', 'No', 'Datums', 'Temats'],
    ['et', '-------- Edastatud kiri --------', 'Saatja', 'Kuupäev', 'Teema'],
  ])('%s: %s opens a forwarded block with parsed headers', (_lang, marker, fromKey, dateKey, subjectKey) => {
    const text = `FYI.\n\n${marker}\n${fromKey}: Carlos <c@x.es>\n${dateKey}: 1 Mar 2024\n${subjectKey}: Dates\n\nNew dates inside.`;
    const split = splitQuotes(text.split('\n'));
    expect(split.kinds[0]).toBe('authored');
    expect(split.kinds.slice(2).every((k) => k === 'forwarded' || k === null)).toBe(true);
    expect(split.forwarded).toEqual([
      { from: 'Carlos <c@x.es>', date: '1 Mar 2024', subject: 'Dates', text: 'New dates inside.' },
    ]);
  });
});
