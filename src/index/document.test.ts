// Documents of messages carrying the same attachment: each is the document its own message
// analyses to with its attachment text analysed whole, whatever was analysed before it (the
// attachment's share is analysed in pieces, reused only where text and language agree).
import { describe, expect, it } from 'vitest';
import { textAnalyzer } from '../analysis/index.js';
import type { CleanedBody, ForwardedBlock } from '../core/types.js';
import type { StoredAttachment } from '../store/index.js';
import { analyseBody, completeDocument, fieldTexts, type IndexableMessage } from './document.js';

const contract: StoredAttachment = {
  filename: 'rahmenvertrag-2025.pdf',
  contentType: 'application/pdf',
  size: 48_211,
  contentId: null,
  inline: false,
  sha256: 'c0ffee'.repeat(10).slice(0, 64),
  extraction: {
    status: 'ok',
    reason: null,
    format: 'pdf',
    detectedType: 'application/pdf',
    language: 'de',
    truncated: false,
    text: 'Lieferungen werden innerhalb von zehn Werktagen bestätigt. Deliveries are confirmed within ten working days.',
    message: null,
  },
};

function carrier(authored: string, forwarded: ForwardedBlock[] = []): Omit<IndexableMessage, 'attachments'> {
  const cleaned: CleanedBody = {
    source: 'text',
    body: authored,
    spans: [],
    authored,
    quoted: '',
    forwarded,
    signature: '',
    disclaimer: '',
    footer: '',
  };
  return {
    from: { name: 'Jana Krüger', address: 'jana@bauplan-nord.example' },
    to: [{ name: 'Einkauf', address: 'einkauf@acme-corp.com' }],
    cc: [],
    bcc: [],
    subject: 'Rahmenvertrag 2025',
    cleaned,
    auth: {},
    listId: null,
  };
}

const german = carrier(
  'Anbei der unterschriebene Rahmenvertrag, die Lieferungen beginnen im Januar wie besprochen.',
);
const english = carrier(
  'Forwarding the signed framework contract: deliveries start in January as we discussed.',
);
const unrelated: StoredAttachment = { ...contract, sha256: 'beef'.repeat(16), extraction: null };

/**
 * The columns `message` analyses to with its attachments' text analysed as one string, the
 * attachments field highlights show: what the share, analysed in pieces and reused, must be.
 */
function analysedWhole(message: IndexableMessage): Record<string, string> {
  const own = completeDocument(analyseBody(message), []);
  const tokens = textAnalyzer(own.language).terms(fieldTexts(message).attachments, 'document');
  const stems = tokens.filter((t) => t.kind === 'stem').map((t) => t.term);
  return {
    ...own.columns,
    text_attachments: tokens
      .filter((t) => t.kind !== 'stem')
      .map((t) => t.term)
      .join(' '),
    text_stems: [own.columns.text_stems, ...stems].filter(Boolean).join(' '),
  };
}

/**
 * A stock list of ~30,000 characters: past the 20,000 the index keeps, where the cap (which
 * counts the file name too) cuts it somewhere else for each carrier. Across 19,456, the last
 * multiple of 1,024 before every cut and so inside the text's last piece, runs an identifier
 * tied by hyphens and a dot, which must stay one compound wherever the text is cut in pieces.
 */
const stockList = (() => {
  const line = (i: number) =>
    `Lieferungen für Lager ${i % 9} bestätigt, deliveries confirmed within ${i % 12} working days\n`;
  let text = '';
  let i = 0;
  while (text.length < 19_300) text += line(i++);
  text += `ref ${Array.from({ length: 60 }, (_, k) => `WH${k}`).join('-')}.rev-b `;
  while (text.length < 30_000) text += line(i++);
  return text;
})();

const stock: StoredAttachment = {
  ...contract,
  filename: 'bestand.txt',
  contentType: 'text/plain',
  sha256: 'abc'.repeat(22).slice(0, 64),
  extraction: { ...(contract.extraction as NonNullable<StoredAttachment['extraction']>), text: stockList },
};

describe('completeDocument', () => {
  it('gives each carrier of one attachment the document it analyses to alone', () => {
    const withContract = (message: typeof german): IndexableMessage => ({
      ...message,
      attachments: [contract],
    });
    const germanAlone = analysedWhole(withContract(german));
    const englishAlone = analysedWhole(withContract(english));
    expect(analyseBody(german).language).toBe('de');
    expect(analyseBody(english).language).toBe('en');
    // Stems of the attachment text follow each message's language.
    expect(germanAlone.text_stems).not.toBe(englishAlone.text_stems);
    completeDocument(analyseBody(german), [unrelated]);
    const inTurn = [german, english, german, german].map((m) => completeDocument(analyseBody(m), [contract]));
    expect(inTurn.map((d) => d.columns)).toEqual([germanAlone, englishAlone, germanAlone, germanAlone]);
  });

  it("analyses a text the cap cuts differently for each carrier as that carrier's whole text", () => {
    const start = stockList.indexOf('ref WH0-');
    expect([start < 19_456, stockList.indexOf('.rev-b') > 19_456]).toEqual([true, true]);
    // A name without a word in it (the first attachment of the last carrier) adds no term.
    const unnamed: StoredAttachment = { ...unrelated, filename: '——' };
    const carriers: Array<[string, typeof german, StoredAttachment[]]> = [
      ['lieferplan.pdf', german, []],
      ['delivery-schedule-2025-final.pdf', english, []],
      ['lp.txt', german, []],
      ['lp.txt', english, []],
      ['lieferplan.pdf', german, [unnamed]],
    ];
    for (const [filename, body, before] of carriers) {
      const message: IndexableMessage = { ...body, attachments: [...before, { ...stock, filename }] };
      expect(fieldTexts(message).attachments).toContain('ref WH0-');
      expect(completeDocument(analyseBody(message), message.attachments).columns).toEqual(
        analysedWhole(message),
      );
    }
  });
});

describe('analyseBody', () => {
  // An English reply above a longer Italian thread it forwards: the reply is what the index
  // weighs above the forward, and what its author's searches will be stemmed like.
  const forwardedThread: ForwardedBlock = {
    from: 'Luca Romano <l.romano@edilpiemonte.example>',
    date: null,
    subject: 'R: Rinnovo contratto',
    text: [
      'Ciao Kevin,',
      'la consegna del materiale è stata rinviata al 3 maggio, quindi fammi sapere se per voi va bene.',
      'La fattura del mese scorso non corrisponde a quanto concordato con il magazzino e la riunione di mercoledì è stata spostata.',
      'Grazie per la pazienza, ci sentiamo la prossima settimana.',
      'Luca',
    ].join('\n'),
  };
  const reply = carrier(
    'Hi Anna, please see the thread below: the delivery has been moved to May and I have asked them for the corrected invoice.',
    [forwardedThread],
  );

  it("stems a message in its author's language when the author's words settle it", () => {
    expect(analyseBody(reply).language).toBe('en');
  });

  it('falls back to the whole text when the author wrote too little to tell', () => {
    expect(analyseBody(carrier('FYI', [forwardedThread])).language).toBe('it');
  });
});
