import { describe, expect, it } from 'vitest';
import { readArchiveAddress, trailingComment, unobscure } from './archive-address.js';
import { parseMessage } from './index.js';

/** A message as a pipermail archive prints it: no To, the sender's address spelled out. */
const archived = (from: string): Buffer =>
  Buffer.from(
    `From marta.rossi at example.org  Tue Jun  5 10:00:00 2007\nFrom: ${from}\nDate: Tue, 05 Jun 2007 10:00:00 +0200\nSubject: [Kiln-users] firing schedule\nMessage-ID: <k1@example.org>\n\nThe cone 6 schedule works.\n`,
  );

describe('addresses as list archives print them', () => {
  it('reads `user at host` back, and nothing else', () => {
    expect(unobscure('marta.rossi at example.org')).toBe('marta.rossi@example.org');
    expect(unobscure('Kiln-Users at Lists.Example.ORG')).toBe('kiln-users@lists.example.org');
    for (const text of [
      'Meet at Noon',
      'marta at localhost',
      'two words at example.org',
      'a@b at example.org',
      '',
    ])
      expect(unobscure(text)).toBeNull();
  });

  it('takes the last top-level comment, nested parentheses and encoded words included', () => {
    expect(trailingComment('marta at example.org (Marta Rossi)')).toBe('Marta Rossi');
    expect(trailingComment('jo at example.org (Jo Bianchi(home))')).toBe('Jo Bianchi(home)');
    expect(trailingComment('jo at example.org (=?iso-8859-1?q?J=F6rg_M=FCller?=)')).toBe('Jörg Müller');
    expect(trailingComment('jo at example.org')).toBeNull();
    expect(trailingComment('jo at example.org ()')).toBeNull();
  });

  it('gives the parsed address and its name back, leaving real addresses alone', () => {
    const header = 'marta.rossi at example.org (Marta Rossi)';
    expect(readArchiveAddress({ name: 'marta.rossi at example.org', address: '' }, header)).toEqual({
      name: 'Marta Rossi',
      address: 'marta.rossi@example.org',
    });
    // A comment that is an address too names nobody.
    expect(
      readArchiveAddress({ name: 'mr at example.org', address: '' }, 'mr at example.org (mr at example.org)'),
    ).toEqual({ name: '', address: 'mr@example.org' });
    // Several addresses in the header: whose comment it is cannot be told.
    expect(readArchiveAddress({ name: 'mr at example.org', address: '' }, null)).toEqual({
      name: '',
      address: 'mr@example.org',
    });
    const real = { name: 'Tom at Home', address: 'tom@example.com' };
    expect(readArchiveAddress(real, 'Tom at Home <tom@example.com>')).toBe(real);
    const plain = { name: 'Meet at Noon', address: '' };
    expect(readArchiveAddress(plain, 'Meet at Noon')).toBe(plain);
  });

  it('parses an archived message with its sender whole, in each form an archive writes', async () => {
    for (const [from, name] of [
      ['marta.rossi at example.org (Marta Rossi)', 'Marta Rossi'],
      ['"Marta Rossi" <marta.rossi at example.org>', 'Marta Rossi'],
      ['<marta.rossi at example.org>', ''],
      ['marta.rossi at example.org (=?ISO-8859-15?Q?Marta_R=F6ssi?=)', 'Marta Rössi'],
    ] as const) {
      const parsed = await parseMessage(archived(from));
      expect(parsed.from, from).toEqual({ name, address: 'marta.rossi@example.org' });
    }
  });
});
