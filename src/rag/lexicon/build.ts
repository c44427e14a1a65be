// Builds the keyword leg's lexicon files from FreeDict dictd files:
//   node dist/src/rag/lexicon/build.js DICTD_DIR OUT_DIR
// DICTD_DIR holds freedict-xxx-yyy.index and .dict.dz pairs, and maybe mueller7's
// (scripts/fetch-lexicon.sh extracts them from Debian's dict-freedict-* and mueller7-dict
// packages); OUT_DIR gets one `from-to.tsv` per
// direction between English and each other language (lexicon.ts).

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseEntry, parseMuellerEntry, readDictd } from './dictd.js';
import { buildLexicons, MUELLER } from './lexicon.js';

export function buildLexiconFolder(dictDir: string, outDir: string): string[] {
  mkdirSync(outDir, { recursive: true });
  return buildLexicons(
    dictDir,
    (stem) =>
      readDictd(
        join(dictDir, `${stem}.index`),
        join(dictDir, `${stem}.dict.dz`),
        stem === MUELLER ? parseMuellerEntry : parseEntry,
      ),
    (file, text) => writeFileSync(join(outDir, file), text),
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [dictDir, outDir] = process.argv.slice(2);
  if (!dictDir || !outDir) {
    process.stderr.write('usage: node build.js DICTD_DIR OUT_DIR\n');
    process.exit(2);
  }
  for (const file of buildLexiconFolder(dictDir, outDir)) process.stdout.write(`${file}\n`);
}
