// Linear-time HTML → text for documents too large for the DOM path: a few native regex
// passes that unclosed comments or tags cannot make quadratic. It keeps text and line
// breaks but not quote containers or hidden-element pruning.

const BLOCK_TAG = /<\/?(br|p|div|tr|li|h[1-6]|blockquote|table|hr|pre|ul|ol)\b[^<>]*>/gi;
const CELL_TAG = /<\/?(td|th)\b[^<>]*>/gi;

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decodeEntities(text: string): string {
  return text.replace(/&(#\d{1,7}|#x[0-9a-f]{1,6}|[a-z]{2,6});/gi, (whole, name: string) => {
    if (name[0] !== '#') return NAMED[name.toLowerCase()] ?? whole;
    const code =
      name[1] === 'x' || name[1] === 'X'
        ? Number.parseInt(name.slice(2), 16)
        : Number.parseInt(name.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/**
 * Drops comments and style/script/head/title contents. A manual scan: a lazy regex would
 * rescan to the end for every unclosed `<!--` or `<style>` and go quadratic.
 */
function dropRawText(html: string): string {
  const out: string[] = [];
  const opener = /<!--|<(style|script|head|title)\b/gi;
  let at = 0;
  for (let match = opener.exec(html); match !== null; match = opener.exec(html)) {
    out.push(html.slice(at, match.index));
    const closing = match[1] ? new RegExp(`</${match[1]}\\s*>`, 'gi') : /-->/g;
    closing.lastIndex = opener.lastIndex;
    const end = closing.exec(html);
    at = end ? closing.lastIndex : html.length;
    opener.lastIndex = at;
  }
  out.push(html.slice(at));
  return out.join('');
}

/**
 * Text of `html` with block boundaries as line breaks. `[^<>]*` cannot run past the next
 * `<`, so every pass is linear even on unclosed tags.
 */
export function stripTags(html: string): string {
  const text = dropRawText(html)
    .replace(BLOCK_TAG, '\n')
    .replace(CELL_TAG, ' ')
    .replace(/<[^<>]*>/g, '');
  return decodeEntities(text).replace(/[ \t\r\f]{2,}|[\t\r\f]/g, ' ');
}
