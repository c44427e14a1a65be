import { describe, expect, it } from 'vitest';
import { repliedSentences } from './replied.js';

const kestrel = `Hi Laura,

Bad news on PO-8812, I'm afraid. Our corrugator went down on Monday with a cracked drive shaft, and the spare is coming from Germany, so the 40,000 cartons will now ship around July 19 rather than June 28.

I can get 10,000 out of our Ohio stock next week if that helps bridge the gap.`;

describe('the lines a reply answers', () => {
  it('pairs the parent’s opening with the sentence the reply shares its words with', () => {
    const reply =
      'yes please, send the 10,000 from Ohio as a partial delivery and the rest when the line is back.';
    expect(repliedSentences(kestrel, reply, 'en')).toEqual([
      "Bad news on PO-8812, I'm afraid.",
      'I can get 10,000 out of our Ohio stock next week if that helps bridge the gap.',
    ]);
  });

  it('matches words through their stems in the reply’s language', () => {
    const parent = `Ciao Marco,

il camion di Verona è fermo in dogana da ieri. Possiamo anticipare la consegna dei tessuti a venerdì mattina?

Grazie`;
    const reply = 'Confermo: consegniamo i tessuti venerdì alle 8, con il secondo camion.';
    expect(repliedSentences(parent, reply, 'it')).toEqual([
      'il camion di Verona è fermo in dogana da ieri.',
      'Possiamo anticipare la consegna dei tessuti a venerdì mattina?',
    ]);
  });

  it('takes the parent’s question when no sentence shares two words with the reply', () => {
    const parent =
      'The auditors arrive on the 14th. They want the stock counts for both warehouses. Can you send them by Thursday?';
    expect(repliedSentences(parent, 'Done, attached.', 'en')).toEqual([
      'The auditors arrive on the 14th.',
      'Can you send them by Thursday?',
    ]);
    // One shared word ("warehouses") is a coincidence, not an answer.
    expect(repliedSentences(parent, 'Both warehouses are closed on Monday.', 'en')).toEqual([
      'The auditors arrive on the 14th.',
      'Can you send them by Thursday?',
    ]);
  });

  it('gives the opening alone when it is what the reply answers, and nothing for a parent without content', () => {
    const parent = 'Can we move the carrier review to Wednesday at 10? The room is booked from 11.';
    expect(repliedSentences(parent, 'Wednesday at 10 works for me, the carrier review it is.', 'en')).toEqual(
      ['Can we move the carrier review to Wednesday at 10?'],
    );
    expect(repliedSentences('Hi Tom,', 'Thanks!', 'en')).toEqual([]);
    expect(repliedSentences('', 'Thanks!', null)).toEqual([]);
  });
});
