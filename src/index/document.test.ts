// Documents of messages carrying the same attachment: each is the document its own message
// analyses to, whatever was analysed before it (the attachment's share is reused only where
// text and language agree).
import { describe, expect, it } from 'vitest';
import type { CleanedBody, ForwardedBlock } from '../core/types.js';
import type { StoredAttachment } from '../store/index.js';
import { analyseBody, completeDocument, type IndexableMessage } from './document.js';

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

describe('completeDocument', () => {
  it('gives each carrier of one attachment the document it analyses to alone', () => {
    const fresh = (message: typeof german) => {
      completeDocument(analyseBody(german), [unrelated]);
      return completeDocument(analyseBody(message), [contract]);
    };
    const germanAlone = fresh(german);
    const englishAlone = fresh(english);
    expect(germanAlone.language).toBe('de');
    expect(englishAlone.language).toBe('en');
    // Stems of the attachment text follow each message's language.
    expect(germanAlone.columns.text_stems).not.toBe(englishAlone.columns.text_stems);
    const inTurn = [german, english, german, german].map((m) => completeDocument(analyseBody(m), [contract]));
    expect(inTurn.map((d) => d.checksum)).toEqual(
      [germanAlone, englishAlone, germanAlone, germanAlone].map((d) => d.checksum),
    );
    expect([...(inTurn[3]?.words ?? [])].sort()).toEqual([...germanAlone.words].sort());
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
