// Quoted-printable leaves decode as mailparser's decoder (libqp) reads them: the walk's
// bodies must match what mailparser would have produced for the same message.
import { describe, expect, it } from 'vitest';
import { leafContent, walkMime } from './mime-walk.js';

/** The decoded body of a one-part quoted-printable message whose body is `body`. */
function decodeBody(body: string): string {
  const raw = Buffer.from(
    `From: Ana <ana@example.org>\r\nSubject: Quarterly figures\r\nContent-Type: text/plain; charset=iso-8859-1\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n${body}`,
    'latin1',
  );
  const [leaf] = walkMime(raw).leaves;
  if (!leaf) throw new Error('no leaf');
  return leafContent(raw, leaf).toString('latin1');
}

describe('quoted-printable leaves', () => {
  it('decodes escapes in either case and joins soft line breaks', () => {
    expect(decodeBody('Caf=E9 au lait, d=c3=a9j=C3=A0 pay=\r\n=E9 =3D 4,50 =80\r\n')).toBe(
      'Caf\xe9 au lait, d\xc3\xa9j\xc3\xa0 pay\xe9 = 4,50 \x80\r\n',
    );
  });

  it('drops the spaces and tabs transport added before a line break or the end', () => {
    expect(decodeBody('Totals: \t\r\nQ3 up 4%  \nnext line\t \r\nlast  ')).toBe(
      'Totals:\r\nQ3 up 4%\nnext line\r\nlast',
    );
    expect(decodeBody('keep  inner  spaces\r\n')).toBe('keep  inner  spaces\r\n');
  });

  it('removes a soft break before reading the escape it completes, and keeps broken escapes', () => {
    expect(decodeBody('==\r\n41 and =\n42')).toBe('A and 42');
    expect(decodeBody('50=% off =G1 =\rx =4')).toBe('50=% off =G1 =\rx =4');
    expect(decodeBody('ends with a soft break =')).toBe('ends with a soft break ');
    expect(decodeBody('trailing blank before soft break = \r\nnext')).toBe(
      'trailing blank before soft break next',
    );
  });
});
