// A small RTF-to-text converter (RTF 1.9.1): control words, groups, \'hh bytes in the
// document's \ansicpg codepage, \uN with its \ucN fallback, and the destinations that hold
// no body text skipped. Groups are kept on an explicit stack, so deep nesting cannot
// overflow the call stack.
import iconv from 'iconv-lite';

/** Destinations whose content is metadata, tables of fonts/colours, pictures or field code. */
const SKIPPED = new Set([
  'fonttbl',
  'colortbl',
  'stylesheet',
  'info',
  'pict',
  'object',
  'fldinst',
  'themedata',
  'colorschememapping',
  'latentstyles',
  'datastore',
  'listtable',
  'listoverridetable',
  'rsidtbl',
  'generator',
  'xmlnstbl',
  'filetbl',
  'revtbl',
  'header',
  'footer',
  'headerl',
  'headerr',
  'headerf',
  'footerl',
  'footerr',
  'footerf',
  'bkmkstart',
  'bkmkend',
  'nonshppict',
  'shppict',
]);

const BREAKS: Record<string, string> = {
  par: '\n',
  line: '\n',
  sect: '\n\n',
  page: '\n\n',
  row: '\n',
  tab: '\t',
  cell: '\t',
  emdash: '\u2014',
  endash: '\u2013',
  bullet: '\u2022',
  lquote: '\u2018',
  rquote: '\u2019',
  ldblquote: '\u201C',
  rdblquote: '\u201D',
  emspace: ' ',
  enspace: ' ',
};

/** A control word and its optional numeric parameter; one space after it is part of it. */
const CONTROL_WORD = /([a-zA-Z]{1,32})(-?\d{1,10})? ?/y;

interface GroupState {
  skip: boolean;
  /** Characters to drop after \uN: the \ucN fallback count in force in this group. */
  uc: number;
}

export function rtfToText(bytes: Buffer, maxChars: number): { text: string; truncated: boolean } {
  const src = bytes.toString('latin1');
  let codepage = 'windows-1252';
  let out = '';
  let pendingBytes: number[] = [];
  let state: GroupState = { skip: false, uc: 1 };
  const stack: GroupState[] = [];
  let dropFallback = 0;
  let truncated = false;

  const flushBytes = (): void => {
    if (pendingBytes.length === 0) return;
    if (!state.skip) out += iconv.decode(Buffer.from(pendingBytes), codepage);
    pendingBytes = [];
  };
  const emit = (text: string): void => {
    flushBytes();
    if (!state.skip) out += text;
  };

  let i = 0;
  while (i < src.length) {
    if (out.length > maxChars) {
      truncated = true;
      break;
    }
    const c = src[i] as string;
    if (c === '{') {
      flushBytes();
      stack.push(state);
      state = { ...state };
      i++;
    } else if (c === '}') {
      flushBytes();
      state = stack.pop() ?? state;
      i++;
    } else if (c === '\r' || c === '\n') {
      i++;
    } else if (c !== '\\') {
      if (dropFallback > 0) dropFallback--;
      else emit(c);
      i++;
    } else {
      const next = src[i + 1] ?? '';
      if (next === "'") {
        const byte = Number.parseInt(src.slice(i + 2, i + 4), 16);
        i += 4;
        if (dropFallback > 0) dropFallback--;
        else if (!Number.isNaN(byte)) pendingBytes.push(byte);
      } else if (next === '*') {
        // \*\dest: an optional destination this reader does not know; its text is not body.
        state.skip = true;
        i += 2;
      } else if (/[a-zA-Z]/.test(next)) {
        CONTROL_WORD.lastIndex = i + 1;
        const match = CONTROL_WORD.exec(src);
        const word = match?.[1] ?? '';
        const param = match?.[2] === undefined ? null : Number(match[2]);
        i += 1 + (match?.[0].length ?? 1);
        if (word === 'bin' && param !== null) i += Math.max(0, param);
        else if (word === 'u' && param !== null) {
          emit(String.fromCharCode(param < 0 ? param + 65536 : param));
          dropFallback = state.uc;
        } else if (word === 'uc' && param !== null) state.uc = param;
        else if (word === 'ansicpg' && param !== null) {
          const named = `cp${param}`;
          if (iconv.encodingExists(named)) codepage = named;
        } else if (SKIPPED.has(word)) {
          flushBytes();
          state.skip = true;
        } else {
          const text = BREAKS[word];
          if (text !== undefined) emit(text);
        }
      } else {
        // Control symbols: escaped specials, non-breaking space and hyphen, optional hyphen.
        i += 2;
        if (next === '\\' || next === '{' || next === '}') emit(next);
        else if (next === '~') emit('\u00A0');
        else if (next === '_') emit('\u2011');
        else if (next === '\n' || next === '\r') emit('\n');
      }
    }
  }
  flushBytes();
  return { text: out, truncated };
}
