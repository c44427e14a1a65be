import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/temp.js';
import { MailsiftError } from '../../core/errors.js';
import { buildLexiconFolder } from './build.js';
import { dictdNumber, parseEntry, parseMuellerEntry, readDictd } from './dictd.js';
import { buildLexicon, Lexicon } from './lexicon.js';
import { ENG_ITA, ITA_ENG, writeDictd } from './test-dictd.js';

describe('dictd dictionaries and the lexicon built from them', () => {
  it('reads dictd numbers, entries and their senses as FreeDict writes them', () => {
    expect(dictdNumber('D1J')).toBe(3 * 4096 + 53 * 64 + 9);
    expect(dictdNumber('B')).toBe(1);
    expect(dictdNumber('?')).toBe(-1);
    expect(parseEntry(ITA_ENG[1] as string)).toEqual({
      headword: 'spedire',
      senses: [['ship', 'send'], ['dispatch']],
    });
    expect(
      parseEntry('Abbruchkante /ˈapbɾʊx/ <fem, n, sg>\nscarped ridge <n>\n   Synonyms: {Bruchkante}\n'),
    ).toEqual({
      headword: 'Abbruchkante',
      senses: [['scarped ridge']],
    });
    const dir = tempDir('mailsift-dictd-');
    writeDictd(dir, 'freedict-ita-eng', ITA_ENG);
    const entries = readDictd(join(dir, 'freedict-ita-eng.index'), join(dir, 'freedict-ita-eng.dict.dz'));
    expect(entries.map((e) => e.headword).sort()).toEqual([
      'Roma',
      'bancale',
      'fattura',
      'ritardo',
      'spedire',
    ]);
  });

  it('reads Mueller’s entries: each sense’s Russian words before its English phrases', () => {
    expect(
      parseMuellerEntry(
        'error\n   [↗ɛrɜ] _n.\n   1) ошибка, заблуждение; to make an error совершить ошибку, ошибиться; in\n   error по ошибке\n   2) грех\n   3) _поэт. блуждание\n   4) отклонение (от нормы), погрешность\n',
      ),
    ).toEqual({
      headword: 'error',
      senses: [['ошибка', 'заблуждение'], ['грех'], ['блуждание'], ['отклонение', 'погрешность']],
    });
    expect(parseMuellerEntry('unread\n   [↗ʌn↗rɛd] _a. непрочитанный\n')).toEqual({
      headword: 'unread',
      senses: [['непрочитанный']],
    });
  });

  it('builds a lexicon both ways: first senses first, stems for inflected question words, glosses dropped', () => {
    const dir = tempDir('mailsift-lexicon-');
    writeDictd(dir, 'freedict-ita-eng', ITA_ENG);
    writeDictd(dir, 'freedict-eng-ita', ENG_ITA);
    expect(buildLexiconFolder(dir, join(dir, 'out'))).toEqual(['it-en.tsv', 'en-it.tsv']);
    const itEn = Lexicon.read(join(dir, 'out', 'it-en.tsv'));
    expect(itEn.translate('fattura', 3)).toEqual(['invoice', 'bill']);
    // An inflected form finds its headword by stem; a word only the reverse dictionary has
    // is found there.
    expect(itEn.translate('fatture', 3)).toEqual(['invoice', 'bill']);
    expect(itEn.translate('spedito', 2)).toEqual(['ship', 'send']);
    expect(itEn.translate('spedizione', 3)).toEqual(['shipment']);
    expect(itEn.translate('Dogana', 3)).toEqual(['customs']);
    expect(itEn.translate('bancali', 3)).toEqual(['pallet', 'loading platform']);
    expect(itEn.translate('ritardi', 3)).toEqual(['delay', 'lateness']);
    expect(itEn.translate('sconosciuto', 3)).toEqual([]);
    const enIt = Lexicon.read(join(dir, 'out', 'en-it.tsv'));
    expect(enIt.translate('shipments', 3)).toEqual(['spedizione', 'carico']);
    expect(enIt.translate('delay', 3)).toEqual(['ritardo']);
  });

  it('names the file and line of a corrupt dictionary or lexicon', () => {
    const dir = tempDir('mailsift-lexicon-bad-');
    writeDictd(dir, 'freedict-ita-eng', ITA_ENG);
    const index = join(dir, 'freedict-ita-eng.index');
    writeFileSync(index, `${readFileSync(index, 'utf8')}broken\t!!\tB\n`);
    expect(() => readDictd(index, join(dir, 'freedict-ita-eng.dict.dz'))).toThrow(
      expect.objectContaining({
        code: 'bad_format',
        param: index,
        message: expect.stringContaining('line 7'),
      }),
    );
    const lexicon = join(dir, 'it-en.tsv');
    writeFileSync(lexicon, 'fattura\tinvoice\n');
    expect(() => Lexicon.read(lexicon)).toThrow(
      expect.objectContaining({ code: 'bad_format', param: lexicon }),
    );
    writeFileSync(lexicon, '#other-list\t1\tit\ten\tsomething else\nfattura\tfattur\tinvoice\n');
    expect(() => Lexicon.read(lexicon)).toThrow(
      expect.objectContaining({ code: 'bad_format', param: lexicon }),
    );
    const good = buildLexicon('it', 'en', [{ headword: 'fattura', senses: [['invoice']] }], [], 'test');
    writeFileSync(lexicon, `${good}fattura invoice\n`);
    expect(() => Lexicon.read(lexicon)).toThrow(
      expect.objectContaining({ message: expect.stringContaining('line 3') }),
    );
    expect(() => Lexicon.read(join(dir, 'none.tsv'))).toThrow(MailsiftError);
    expect(() => Lexicon.read(join(dir, 'none.tsv'))).toThrow(expect.objectContaining({ code: 'not_found' }));
  });
});
