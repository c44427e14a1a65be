// A reader of the TNEF attribute stream (winmail.dat, MS-OXTNEF): the message body and the
// attached files, named by their long filename when the MAPI properties carry one.
import iconv from 'iconv-lite';

export interface TnefAttachment {
  name: string;
  contentType: string;
  data: Buffer;
}

export interface TnefContent {
  body: string;
  attachments: TnefAttachment[];
}

const LEVEL_ATTACHMENT = 2;
const ATT_BODY = 0x800c;
const ATT_ATTACH_DATA = 0x800f;
const ATT_ATTACH_TITLE = 0x8010;
const ATT_MAPI_PROPS = 0x9003;
const ATT_ATTACH_REND_DATA = 0x9002;
const ATT_ATTACHMENT = 0x9005;

const PR_BODY = 0x1000;
const PR_ATTACH_DATA = 0x3701;
const PR_ATTACH_LONG_FILENAME = 0x3707;
const PR_ATTACH_MIME_TAG = 0x370e;

/** Byte sizes of fixed-length MAPI property types, padded to 4 (MS-OXTNEF 2.1.3.4). */
const FIXED_SIZE: Record<number, number> = {
  2: 4,
  3: 4,
  4: 4,
  5: 8,
  6: 8,
  7: 8,
  10: 4,
  11: 4,
  20: 8,
  64: 8,
  72: 16,
};
const PT_STRING8 = 0x1e;
const PT_UNICODE = 0x1f;
const PT_BINARY = 0x102;
const PT_OBJECT = 0x0d;

const corrupt = (what: string): Error => new Error(`corrupt tnef: ${what}`);
const cString = (b: Buffer, charset = 'windows-1252'): string =>
  iconv.decode(b, charset).replace(/\0[\s\S]*$/, '');

/** Single-valued properties by id: strings decoded, binaries (and objects, minus their IID) as bytes. */
function readMapiProps(b: Buffer): Map<number, string | Buffer> {
  const props = new Map<number, string | Buffer>();
  let p = 0;
  const need = (n: number): void => {
    if (p + n > b.length) throw corrupt('MAPI property overruns its attribute');
  };
  const u32 = (): number => {
    need(4);
    const v = b.readUInt32LE(p);
    p += 4;
    return v;
  };
  const count = u32();
  for (let n = 0; n < count; n++) {
    need(4);
    const type = b.readUInt16LE(p);
    const id = b.readUInt16LE(p + 2);
    p += 4;
    if (id >= 0x8000) {
      need(16);
      p += 16;
      if (u32() === 0) p += 4;
      else {
        const length = u32();
        p += (length + 3) & ~3;
      }
    }
    const base = type & 0x0fff;
    const variable = base === PT_STRING8 || base === PT_UNICODE || base === PT_BINARY || base === PT_OBJECT;
    const values = type & 0x1000 || variable ? u32() : 1;
    for (let v = 0; v < values; v++) {
      if (!variable) {
        const size = FIXED_SIZE[base];
        if (size === undefined) throw corrupt(`unknown MAPI type 0x${base.toString(16)}`);
        need(size);
        p += size;
        continue;
      }
      const length = u32();
      need(length);
      const data = b.subarray(p, p + length);
      p += (length + 3) & ~3;
      if (v > 0 || type & 0x1000) continue;
      if (base === PT_STRING8) props.set(id, cString(data));
      else if (base === PT_UNICODE) props.set(id, cString(data, 'utf-16le'));
      else props.set(id, base === PT_OBJECT ? data.subarray(16) : data);
    }
  }
  return props;
}

export function readTnef(b: Buffer): TnefContent {
  const content: TnefContent = { body: '', attachments: [] };
  let current: { title: string; longName: string; contentType: string; data: Buffer | null } | null = null;
  const close = (): void => {
    if (current?.data) {
      content.attachments.push({
        name: current.longName || current.title || `attachment-${content.attachments.length + 1}`,
        contentType: current.contentType || 'application/octet-stream',
        data: current.data,
      });
    }
    current = null;
  };
  // Signature (4 bytes) and legacy key (2 bytes), then attributes: level, id, length, data, checksum.
  let p = 6;
  while (p + 9 <= b.length) {
    const level = b[p] as number;
    const id = b.readUInt32LE(p + 1) & 0xffff;
    const length = b.readUInt32LE(p + 5);
    const data = b.subarray(p + 9, p + 9 + length);
    if (data.length < length) throw corrupt(`attribute 0x${id.toString(16)} is truncated`);
    p += 9 + length + 2;
    if (level === LEVEL_ATTACHMENT) {
      if (id === ATT_ATTACH_REND_DATA) {
        close();
        current = { title: '', longName: '', contentType: '', data: null };
      }
      if (!current) continue;
      if (id === ATT_ATTACH_TITLE) current.title = cString(data);
      else if (id === ATT_ATTACH_DATA) current.data = data;
      else if (id === ATT_ATTACHMENT) {
        const props = readMapiProps(data);
        const longName = props.get(PR_ATTACH_LONG_FILENAME);
        const mime = props.get(PR_ATTACH_MIME_TAG);
        const bytes = props.get(PR_ATTACH_DATA);
        if (typeof longName === 'string') current.longName = longName;
        if (typeof mime === 'string') current.contentType = mime;
        if (Buffer.isBuffer(bytes) && !current.data) current.data = bytes;
      }
    } else if (id === ATT_BODY) content.body = cString(data);
    else if (id === ATT_MAPI_PROPS && !content.body) {
      const body = readMapiProps(data).get(PR_BODY);
      if (typeof body === 'string') content.body = body;
    }
  }
  close();
  return content;
}
