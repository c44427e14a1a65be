// Business threads in Italian, Russian, French, Spanish, Japanese and Chinese, in the legacy
// charsets their senders' clients still use (windows-1252, koi8-r, windows-1251, iso-2022-jp, gb2312).

import { type SampleMessage, Thread } from './kit.js';
import { camille, dmitry, giulia, javier, laura, olga, tanaka, wang } from './people.js';

function italian(): SampleMessage[] {
  const t = new Thread('it-imballaggi', 'Offerta film estensibile 2024', 'it', 'windows-1252');
  t.post({
    id: 'DB9PR03MB8123GF0110@DB9PR03MB8123.eurprd03.prod.outlook.com',
    from: giulia,
    to: [laura],
    at: '2024-01-10 11:20 +0100',
    body: `Gentile Laura,

come da accordi Le invio la nostra offerta per il 2024: film estensibile 23 µm, bobine da 300 m, a 1,42 € al kg per quantitativi superiori a 5 tonnellate l'anno. Il prezzo è bloccato fino al 30 giugno.

Resto a disposizione per qualsiasi chiarimento.

Cordiali saluti,
Giulia Ferrari
Ufficio Commerciale – Forniture Italia S.r.l.`,
    cte: 'quoted-printable',
  });
  t.post({
    id: 'CAH7Lb2q0it0111@mail.gmail.com',
    from: laura,
    to: [giulia],
    at: '2024-01-11 09:05 +0100',
    body: `Buongiorno Giulia,

grazie per l'offerta. Il prezzo va bene, ma ci servono consegne mensili da 500 kg invece di due consegne semestrali: il magazzino di Milano non ha spazio per tenere tre tonnellate di film.

Può confermarmi se è possibile allo stesso prezzo?

Un saluto,
Laura`,
    charset: 'utf-8',
  });
  t.post({
    id: 'DB9PR03MB8123GF0112@DB9PR03MB8123.eurprd03.prod.outlook.com',
    from: giulia,
    to: [laura],
    at: '2024-01-12 15:48 +0100',
    body: `Gentile Laura,

confermo: consegne mensili da 500 kg, prima consegna il 5 febbraio, stesso prezzo di 1,42 €/kg. Le mando il contratto quadro in giornata.

Cordiali saluti,
Giulia Ferrari`,
    cte: 'quoted-printable',
  });
  t.post({
    id: 'DB9PR03MB8123GF0920@DB9PR03MB8123.eurprd03.prod.outlook.com',
    from: giulia,
    to: [laura],
    at: '2024-09-20 10:02 +0200',
    subject: 'R: Offerta film estensibile 2024 - ritardo consegna di ottobre',
    body: `Gentile Laura,

purtroppo la consegna di ottobre slitterà di una settimana, all'11 ottobre, per un fermo macchina nel nostro stabilimento di Brescia. Ci scusiamo per il disagio.

Cordiali saluti,
Giulia Ferrari`,
    charset: 'iso-8859-1',
    cte: '8bit',
  });
  t.post({
    id: 'CAH7Lb2q0it0920@mail.gmail.com',
    from: laura,
    to: [giulia],
    at: '2024-09-20 11:15 +0200',
    body: `Ciao Giulia,

nessun problema per una settimana, abbiamo scorte fino al 15 ottobre. Mi confermi la data appena possibile?

Grazie,
Laura`,
    charset: 'utf-8',
    cte: 'base64',
  });
  return t.messages;
}

function russian(): SampleMessage[] {
  const t = new Thread('ru-perevozka', 'Договор перевозки Милан - Москва', 'ru', 'koi8-r');
  t.post({
    id: 'c0ffee01-7d2a-4f1b-9e3c-ural0515@ural-trans.ru',
    from: dmitry,
    to: [olga],
    cc: [laura],
    at: '2024-05-15 10:30 +0500',
    body: `Ольга, добрый день!

Направляю условия перевозки по маршруту Милан - Москва: тент 20 т, срок доставки 9 дней, стоимость 4 850 евро за рейс. Таможенное оформление на нашей стороне.

Если условия подходят, пришлём проект договора.

С уважением,
Дмитрий Соколов
ООО Урал-Транс`,
    cte: '8bit',
  });
  t.post({
    id: '3b9e21d4-olga-0516@acme-corp.com',
    from: olga,
    to: [dmitry],
    cc: [laura],
    at: '2024-05-16 09:12 +0300',
    body: `Дмитрий, здравствуйте!

Условия в целом подходят. Просим снизить стоимость до 4 600 евро при объёме от двух рейсов в месяц и указать в договоре ответственность за повреждение груза.

Ольга Иванова
Acme Corp, представительство в Москве`,
    charset: 'koi8-r',
    cte: 'base64',
  });
  t.post({
    id: 'c0ffee02-7d2a-4f1b-9e3c-ural0520@ural-trans.ru',
    from: dmitry,
    to: [olga],
    cc: [laura],
    at: '2024-05-20 14:05 +0500',
    body: `Ольга, согласны на 4 600 евро при двух рейсах в месяц.

Проект договора № УТ-2024/117 во вложении будет отправлен завтра. Ответственность за груз - в пределах его стоимости по CMR.

С уважением,
Дмитрий Соколов`,
    charset: 'windows-1251',
    cte: 'quoted-printable',
  });
  t.post({
    id: 'CAH7Lb2q0ru0521@mail.gmail.com',
    from: laura,
    to: [olga],
    at: '2024-05-21 08:40 +0200',
    subject: 'Re: Договор перевозки Милан - Москва',
    body: `Olga, thanks - 4,600 EUR per trip works for us. Please go ahead with contract УТ-2024/117 and send it to Tom for review.

Laura`,
    charset: 'utf-8',
  });
  return t.messages;
}

function shortThreads(): SampleMessage[] {
  const fr = new Thread('fr-transport', 'Enlèvement du 14 mai - quai 3', 'fr', 'iso-8859-1');
  fr.post({
    id: 'A1B2C3D4-CAMILLE-0510@transports-durand.fr',
    from: camille,
    to: [laura],
    at: '2024-05-10 16:30 +0200',
    body: `Bonjour Laura,

notre camion passera le mardi 14 mai à 8 h pour l'enlèvement des 12 palettes à destination de Lyon. Merci de prévoir le quai 3 et les documents de transport.

Bien cordialement,
Camille Durand
Transports Durand`,
    cte: 'quoted-printable',
  });
  fr.post({
    id: 'CAH7Lb2q0fr0510@mail.gmail.com',
    from: laura,
    to: [camille],
    at: '2024-05-10 17:05 +0200',
    body: `Bonjour Camille,

c'est noté, le quai 3 sera libre mardi à 8 h. Les documents seront prêts à l'accueil.

Cordialement,
Laura`,
    charset: 'utf-8',
  });

  const es = new Thread('es-palets', 'Pedido de palés PO-8120', 'es', 'utf-8');
  es.post({
    id: 'CAJav-po8120-0611@mail.gmail.com',
    from: javier,
    to: [laura],
    at: '2024-06-11 12:10 +0200',
    body: `Hola Laura,

te confirmo el pedido PO-8120: 400 palés europeos, entrega en Milán el 2 de julio. El precio es de 9,80 € por unidad, transporte incluido.

Un saludo,
Javier López
Logística Ibérica`,
    cte: '8bit',
  });
  es.post({
    id: 'CAH7Lb2q0es0611@mail.gmail.com',
    from: laura,
    to: [javier],
    at: '2024-06-11 13:00 +0200',
    body: `Hola Javier,

perfecto, gracias. ¿Puedes enviarme la factura con el número de pedido PO-8120?

Saludos,
Laura`,
  });

  const ja = new Thread('ja-quote', '見積書送付のお知らせ', 'ja', 'iso-2022-jp');
  ja.post({
    id: 'TYAPR01MB5566TANAKA0702@TYAPR01MB5566.jpnprd01.prod.outlook.com',
    from: tanaka,
    to: [laura],
    at: '2024-07-02 10:00 +0900',
    body: `Acme Corp
Laura Bianchi様

いつもお世話になっております。東京商事の田中です。

ご依頼いただいた棚部品の見積書をお送りいたします。納期は受注後四週間です。

ご確認のほど、よろしくお願いいたします。

田中 健`,
  });
  ja.post({
    id: 'CAH7Lb2q0ja0702@mail.gmail.com',
    from: laura,
    to: [tanaka],
    at: '2024-07-02 09:30 +0200',
    body: `Dear Tanaka-san,

thank you for the quotation. Four weeks lead time is fine; we will send the purchase order next week.

Best regards,
Laura`,
    charset: 'utf-8',
  });

  const zh = new Thread('zh-sample', '样品发货通知', 'zh', 'gb2312');
  zh.post({
    id: 'HK0PR02MB3344WANG0815@HK0PR02MB3344.apcprd02.prod.outlook.com',
    from: wang,
    to: [laura],
    at: '2024-08-15 15:20 +0800',
    body: `Laura 女士，您好：

我们已经通过快递寄出三件货架样品，运单号为 SF1234567890，预计下周二到达米兰。

如有问题请随时联系。

王伟
华信贸易`,
    cte: 'base64',
  });
  return [...fr.messages, ...es.messages, ...ja.messages, ...zh.messages];
}

export function internationalStory(): SampleMessage[] {
  return [...italian(), ...russian(), ...shortThreads()];
}
