// Bytes of a text attachment to a string: BOM, then strict UTF-8, then the declared charset,
// then detection. Attachments are labelled even less reliably than message bodies.
import { isUtf8 } from 'node:buffer';
import chardet from 'chardet';
import iconv from 'iconv-lite';

function declaredCharset(contentType: string): string | null {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType);
  const charset = match?.[1]?.toLowerCase();
  return charset && iconv.encodingExists(charset) ? charset : null;
}

/**
 * Valid UTF-8 wins over a declared legacy charset: multi-byte sequences are all but
 * impossible by accident, while a wrong label is common. `metaCharset` is a charset the
 * content names itself (an HTML <meta>, an RTF \ansicpg), tried after the declared one.
 */
export function decodeText(bytes: Buffer, contentType: string, metaCharset: string | null = null): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return bytes.subarray(3).toString('utf8');
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return iconv.decode(bytes.subarray(2), 'utf-16le');
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return iconv.decode(bytes.subarray(2), 'utf-16be');
  if (isUtf8(bytes)) return bytes.toString('utf8');
  const named = declaredCharset(contentType);
  const meta = metaCharset && iconv.encodingExists(metaCharset) ? metaCharset : null;
  const charset = [named, meta].find((c) => c !== null && !/^(utf-?8|us-ascii)$/.test(c));
  if (charset) return iconv.decode(bytes, charset);
  const detected = chardet.detect(bytes.subarray(0, 64 * 1024));
  // windows-1252 is a superset of latin-1 for 0x80–0x9F (€ “ ”): the safer last resort.
  return iconv.decode(bytes, detected && iconv.encodingExists(detected) ? detected : 'windows-1252');
}

/** The charset an HTML document names in a <meta> near its start. */
export function htmlMetaCharset(bytes: Buffer): string | null {
  const head = bytes.subarray(0, 4096).toString('latin1');
  return /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(head)?.[1]?.toLowerCase() ?? null;
}
