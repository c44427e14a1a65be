// Helpers the corpus tests share: header lookup and text-part extraction over raw bytes,
// written independently of the generator so the tests check its output, not its code.

/** Unfolded value of the first header `name` in the message's header block, or null. */
export function header(raw: Buffer, name: string): string | null {
  const s = raw.toString('latin1');
  const end = s.indexOf('\n\n');
  const head = (end < 0 ? s : s.slice(0, end)).replace(/\n[ \t]+/g, ' ');
  const m = new RegExp(`^${name}:[ \\t]*(.*)$`, 'im').exec(head);
  return m ? (m[1] as string) : null;
}

export function ids(value: string | null): string[] {
  return value ? [...value.matchAll(/<([^>]+)>/g)].map((m) => m[1] as string) : [];
}

export interface TextPart {
  readonly subtype: string;
  readonly charset: string;
  readonly encoding: string;
  /** Body bytes after undoing the transfer encoding. */
  readonly bytes: Buffer;
}

function decodeQp(s: string): Buffer {
  const bin = s
    .replace(/=\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  return Buffer.from(bin, 'latin1');
}

/** Every text/plain and text/html part with its declared charset and decoded bytes. */
export function textParts(raw: Buffer): TextPart[] {
  const s = raw.toString('latin1');
  const re =
    /Content-Type: text\/(plain|html); charset="([^"]+)"\nContent-Transfer-Encoding: ([\w-]+)\n\n([\s\S]*?)(?=\n--|$)/g;
  const out: TextPart[] = [];
  for (const m of s.matchAll(re)) {
    const [, subtype, charset, encoding, body] = m as unknown as [string, string, string, string, string];
    const bytes =
      encoding === 'base64'
        ? Buffer.from(body, 'base64')
        : encoding === 'quoted-printable'
          ? decodeQp(body)
          : Buffer.from(body, 'latin1');
    out.push({ subtype, charset, encoding, bytes });
  }
  return out;
}
