// Quote and forward detection on plain-text lines, one table per detector and language.
import { describe, expect, it } from 'vitest';
import { splitQuotes } from './quotes.js';

const kindsOf = (text: string): (string | null)[] => splitQuotes(text.split('\n')).kinds;

describe('attribution lines', () => {
  it.each([
    ['en', 'On Mon, Mar 4, 2024 at 10:12 AM Bob Smith <bob@example.com> wrote:'],
    ['it', 'Il giorno lun 4 mar 2024 alle ore 10:12 Mario Rossi <mario@example.it> ha scritto:'],
    ['de', 'Am 04.03.2024 um 10:12 schrieb Hans Müller <hans@example.de>:'],
    ['fr', 'Le lun. 4 mars 2024 à 10:12, Jean Dupont <jean@example.fr> a écrit :'],
    ['es', 'El lun, 4 mar 2024 a las 10:12, Juan Pérez (<juan@example.es>) escribió:'],
    ['pt', 'Em seg., 4 de mar. de 2024 às 10:12, João Silva <joao@example.pt> escreveu:'],
    ['nl', 'Op ma 4 mrt 2024 om 10:12 schreef Jan de Vries <jan@example.nl>:'],
    ['ru', '4 марта 2024 г., в 10:12, Иван Петров <ivan@example.ru> написал(а):'],
    ['ru (Gmail, no verb)', 'пн, 4 мар. 2024 г. в 10:12, Иван Петров <ivan@example.ru>:'],
  ])('%s: the attribution and the quote are quoted, the reply authored', (_lang, attribution) => {
    expect(kindsOf(`Reply text.\n\n${attribution}\n> quoted line`)).toEqual([
      'authored',
      null,
      'quoted',
      'quoted',
    ]);
  });

  it('joins an attribution wrapped over two lines', () => {
    const text = 'Fine.\n\nOn Mon, Mar 4, 2024 at 10:12 AM Bob Smith <bob@example.com>\nwrote:\n\n> Ok?';
    expect(kindsOf(text)).toEqual(['authored', null, 'quoted', 'quoted', null, 'quoted']);
  });

  it('treats a dated attribution with nothing quoted after it as the start of history', () => {
    const text = 'Yes.\nOn Mon, Mar 4, 2024 at 10:12 AM Bob <bob@example.com> wrote:\nunquoted old text';
    expect(kindsOf(text)).toEqual(['authored', 'quoted', 'quoted']);
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
