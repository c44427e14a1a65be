// Italian and Russian story threads of the bench:rag archive: a metalwork supplier, a
// haulier's invoice, the training budget and holiday rota, a forklift distributor, travel.

import type { StoryThread } from './rag-corpus.js';
import { alexei, bassi, dmitry, giorgio, giulia, irina, laura, luca, marco, olga } from './rag-people.js';

function italian(): StoryThread[] {
  return [
    {
      key: 'ferri-staffe',
      subject: 'Consegna staffe zincate ordine 2024/311',
      lang: 'it',
      posts: [
        {
          id: 'CAH7Lb2q0SET13fe@mail.gmail.com',
          from: laura,
          to: [giorgio],
          cc: [luca],
          at: '2024-09-13 11:30 +0200',
          body: `Buongiorno Giorgio,

le 2.000 staffe arrivate ieri non corrispondono al disegno: lo spessore misurato è 2 mm invece di 3 mm, e su un campione di 50 pezzi la zincatura si sfoglia già ai bordi.

Non possiamo montarle sulle scaffalature. Vi chiediamo di ritirarle a vostre spese e di sostituirle entro il 4 ottobre.

Cordiali saluti,
Laura Bianchi
Acme Corp - Ufficio Acquisti`,
        },
        {
          id: 'CAGferri20240916st@mail.gmail.com',
          from: giorgio,
          to: [laura],
          cc: [luca],
          at: '2024-09-16 08:50 +0200',
          body: `Gentile Laura,

ha ragione, mi scuso: in produzione è stata usata la lamiera di un altro ordine. Il nostro corriere passa a ritirare il materiale giovedì 19 e la nuova fornitura, da 3 mm, partirà il 30 settembre.

Cordiali saluti,
Giorgio Ferri`,
        },
      ],
    },
    {
      key: 'bassi-fattura',
      subject: 'Fattura FT-2024/0871',
      lang: 'it',
      posts: [
        {
          id: 'bassi.20241105.0871@autotrasportibassi.it',
          from: bassi,
          to: [marco],
          at: '2024-11-05 09:45 +0100',
          body: `Spett.le Acme Corp,

in allegato alla presente la fattura FT-2024/0871 relativa ai trasporti Milano - Bologna del mese di ottobre (12 viaggi), per un totale di € 7.680,00 + IVA, pagamento a 60 giorni data fattura fine mese.

Distinti saluti,
Paola Bassi
Amministrazione - Autotrasporti Bassi S.n.c.`,
        },
        {
          id: 'CAM4rco20241106ba@mail.gmail.com',
          from: marco,
          to: [bassi],
          at: '2024-11-06 14:20 +0100',
          body: `Gentile Paola,

nel nostro registro i viaggi di ottobre sono 11, non 12: il 23 ottobre il camion non si è presentato e abbiamo usato un altro vettore. Vi chiedo una nota di credito per un viaggio (€ 640,00).

Saluti,
Marco Rossi`,
        },
      ],
    },
    {
      key: 'formazione',
      subject: 'Budget formazione 2025',
      lang: 'it',
      posts: [
        {
          id: 'CAH7Lb2q0DEC10fo@mail.gmail.com',
          from: laura,
          to: [marco],
          at: '2024-12-10 10:00 +0100',
          body: `Ciao Marco,

per il 2025 ti propongo per l'ufficio acquisti: corso di negoziazione per tre persone (4.500 €), certificazione CIPS per Giulia (3.800 €) e l'abbonamento alla piattaforma di e-learning (3.700 €). Totale 12.000 €.

Fammi sapere se rientra nel piano.

Laura`,
        },
        {
          id: 'CAM4rco20241212fo@mail.gmail.com',
          from: marco,
          to: [laura],
          at: '2024-12-12 18:05 +0100',
          body: `Ciao Laura,

approvato, ma a 10.000 €: l'abbonamento all'e-learning lo prendiamo a livello di gruppo, quindi esce dal tuo centro di costo. Il resto va bene così.

Marco`,
        },
      ],
    },
    {
      key: 'ferie-agosto',
      subject: 'Turni magazzino agosto',
      lang: 'it',
      posts: [
        {
          id: 'CALm0r3tti20250603fe@mail.gmail.com',
          from: luca,
          to: [laura, giulia],
          at: '2025-06-03 15:30 +0200',
          body: `Ciao a tutte,

ecco la copertura per agosto: il magazzino resta aperto tranne la settimana di Ferragosto (11-15 agosto), quando chiudiamo. Dal 4 all'8 e dal 18 al 22 sono di turno io e Stefano; dal 25 al 29 Elena e Stefano.

Se qualcuno ha bisogno di ricevere merce nella settimana di chiusura, avvisatemi entro il 30 giugno.

Luca`,
        },
      ],
    },
  ];
}

function russian(): StoryThread[] {
  return [
    {
      key: 'tekhnosnab',
      subject: 'Поставка погрузчиков по договору ТС-118/24',
      lang: 'ru',
      posts: [
        {
          id: 'ts.20241120.118@tekhnosnab.ru',
          from: alexei,
          to: [olga],
          at: '2024-11-20 10:15 +0300',
          body: `Ольга, добрый день!

К сожалению, отгрузка трёх погрузчиков по договору ТС-118/24 переносится. Груз стоит на таможенном посту в Бресте: декларацию вернули из-за ошибки в коде ТН ВЭД, исправленный документ подали вчера.

Ориентировочно машина будет у вас 6 декабря вместо 25 ноября.

С уважением,
Алексей Смирнов
ООО «ТехноСнаб», отдел продаж`,
        },
        {
          id: 'CAOlga20241120ts@acme-corp.com',
          from: olga,
          to: [alexei],
          cc: [laura],
          at: '2024-11-20 12:40 +0300',
          body: `Алексей, здравствуйте.

Понятно. Прошу прислать копию исправленной декларации и сообщить номер машины, как только она выйдет с поста. По договору за каждый день просрочки начисляется 0,1% от стоимости, мы это зафиксируем.

Ольга Иванова`,
        },
        {
          id: 'ts.20241206.118@tekhnosnab.ru',
          from: irina,
          to: [olga],
          at: '2024-12-06 16:05 +0300',
          body: `Ольга, добрый день.

Машина с погрузчиками выгружена у вас на складе сегодня в 14:30, акт приёмки подписан вашим кладовщиком без замечаний. Счёт № 2291 на оставшиеся 30% направим завтра.

Ирина Козлова
ООО «ТехноСнаб», логистика`,
        },
      ],
    },
    {
      key: 'ekb-trip',
      subject: 'Итоги поездки в Екатеринбург',
      lang: 'ru',
      posts: [
        {
          id: 'CAOlga20250416ek@acme-corp.com',
          from: olga,
          to: [laura],
          at: '2025-04-16 19:20 +0500',
          body: `Лаура, привет!

Коротко о поездке. Были у трёх дистрибьюторов. «УралСклад» готов взять нашу линейку стеллажей на пробу, первая партия на 40 тысяч евро в июне. С «Меридианом» договорились только о повторной встрече осенью, им сейчас не до новых брендов. Третий дистрибьютор нам не подходит: у них нет собственного склада.

Подробный отчёт пришлю в понедельник.

Ольга`,
        },
      ],
    },
    {
      key: 'ural-trans',
      subject: 'Счёт № 457 за перевозку',
      lang: 'ru',
      posts: [
        {
          id: 'urt.20250204.457@ural-trans.ru',
          from: dmitry,
          to: [olga],
          at: '2025-02-04 09:10 +0500',
          body: `Добрый день, Ольга!

Направляем счёт № 457 от 3 февраля за перевозку груза Екатеринбург – Москва (два полуприцепа, 28 января). Сумма: 186 400 руб., в том числе НДС 20%. Оплата в течение 10 банковских дней.

С уважением,
Дмитрий Соколов
ООО «Урал-Транс»`,
        },
      ],
    },
  ];
}

export function foreignStories(): StoryThread[] {
  return [...italian(), ...russian()];
}
