// Hostile input: every case must finish (quickly, though speed is measured in benchmarks, not
// asserted here) and yield a message with warnings instead of throwing. Inputs are generated.

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../core/limits.js';
import { parseMessage } from './index.js';

const HEAD = 'From: Eve <eve@example.com>\r\nTo: bob@example.com\r\nDate: Mon, 3 Jun 2024 10:00:00 +0000\r\n';

describe('hostile headers', () => {
  it('drops a 50 MB single-line header and keeps the others', async () => {
    const bytes = Buffer.concat([
      Buffer.from(HEAD),
      Buffer.from(`X-Spam-Report: ${'A'.repeat(50 * 1024 * 1024)}\r\n`),
      Buffer.from('Subject: still here\r\nMessage-ID: <ok@example.com>\r\n\r\nbody\r\n'),
    ]);
    const message = await parseMessage(bytes);
    expect(message.subject).toBe('still here');
    expect(message.messageId).toBe('ok@example.com');
    expect(message.text).toBe('body');
    expect(message.warnings[0]).toMatch(/^header: dropped x-spam-report line of \d+ bytes/);
  });

  it('drops header fields beyond the header block limit', async () => {
    const received = 'Received: from relay.example.net by mx.example.com; Mon, 3 Jun 2024 10:00:00 +0000\r\n';
    const count = Math.ceil((2 * LIMITS.maxHeaderBytes) / received.length);
    const bytes = Buffer.from(`${HEAD}Subject: many hops\r\n${received.repeat(count)}\r\nbody\r\n`);
    const message = await parseMessage(bytes);
    expect(message.subject).toBe('many hops');
    expect(message.text).toBe('body');
    expect(message.warnings).toContain(`header: block over ${LIMITS.maxHeaderBytes} bytes, rest dropped`);
  });

  it('keeps the last references of a 10,000-id References header', async () => {
    const ids = Array.from({ length: 10_000 }, (_, i) => `<msg-${i}.1718000000@mail.example.com>`);
    const bytes = Buffer.from(
      `${HEAD}Subject: Re: long thread\r\nReferences: ${ids.join('\r\n ')}\r\nIn-Reply-To: ${ids[9_999]}\r\n\r\nreply\r\n`,
    );
    const message = await parseMessage(bytes);
    expect(message.references).toHaveLength(LIMITS.maxReferences);
    expect(message.references[0]).toBe(`msg-${10_000 - LIMITS.maxReferences}.1718000000@mail.example.com`);
    expect(message.references.at(-1)).toBe('msg-9999.1718000000@mail.example.com');
    expect(message.inReplyTo).toBe('msg-9999.1718000000@mail.example.com');
    expect(message.warnings.some((w) => w.startsWith('header: references line of'))).toBe(true);
  });

  it('drops 400,000 colon-less lines inside the header block', async () => {
    const junk = 'this line is not a header field\r\n'.repeat(400_000);
    const message = await parseMessage(Buffer.from(`${HEAD}${junk}Subject: after junk\r\n\r\nbody\r\n`));
    expect(message.from?.address).toBe('eve@example.com');
    expect(message.text).toBe('body');
    expect(message.warnings).toContain('header: dropped 400000 malformed header lines');
  });

  it('keeps the first addresses of an oversized To line', async () => {
    const to = Array.from({ length: 10_000 }, (_, i) => `"User ${i}" <user${i}@example.com>`).join(', ');
    const message = await parseMessage(
      Buffer.from(`${HEAD.replace(/To: .*\r\n/, '')}To: ${to}\r\nSubject: all\r\n\r\nx\r\n`),
    );
    expect(message.to.length).toBeGreaterThan(5_000);
    expect(message.to[0]).toEqual({ name: 'User 0', address: 'user0@example.com' });
    expect(message.warnings[0]).toMatch(/^header: to line of \d+ bytes shortened to \d+$/);
  });

  it('reads ids around 50,000 nested comments', async () => {
    const nested = `${'('.repeat(50_000)}<hidden@example.com>${')'.repeat(50_000)}`;
    const message = await parseMessage(
      Buffer.from(`${HEAD}References: <first@example.com> ${nested} <last@example.com>\r\n\r\nx\r\n`),
    );
    expect(message.references).toEqual(['first@example.com', 'last@example.com']);
  });
});

describe('hostile MIME structure', () => {
  it('stops below the MIME depth limit and keeps the shallow parts', async () => {
    const depth = 60;
    let body = 'Content-Type: text/plain\r\n\r\ndeepest text\r\n';
    for (let level = depth; level > 0; level--) {
      body = `Content-Type: multipart/mixed; boundary="b${level}"\r\n\r\n--b${level}\r\n${body}--b${level}--\r\n`;
    }
    const bytes = Buffer.from(
      `${HEAD}Subject: nested\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="top"\r\n\r\n` +
        `--top\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nshallow text\r\n--top\r\n${body}--top--\r\n`,
    );
    const message = await parseMessage(bytes);
    expect(message.subject).toBe('nested');
    expect(message.text).toBe('shallow text');
    expect(message.warnings).toContain(
      `mime: nesting deeper than ${LIMITS.maxMimeDepth} levels, deeper parts skipped`,
    );
  });

  it('stops collecting parts beyond the part limit', async () => {
    const parts = Array.from(
      { length: LIMITS.maxMimeParts + 500 },
      (_, i) =>
        `--p\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename="f${i}.bin"\r\n` +
        `Content-Transfer-Encoding: base64\r\n\r\n${Buffer.from(`part ${i}`).toString('base64')}\r\n`,
    );
    const bytes = Buffer.from(
      `${HEAD}Subject: many parts\r\nContent-Type: multipart/mixed; boundary="p"\r\n\r\n` +
        `--p\r\nContent-Type: text/plain\r\n\r\nsee attached\r\n${parts.join('')}--p--\r\n`,
    );
    const message = await parseMessage(bytes);
    expect(message.subject).toBe('many parts');
    expect(message.text).toBe('see attached');
    expect(message.attachments.length).toBe(LIMITS.maxMimeParts - 2);
    expect(message.attachments[0]).toMatchObject({ filename: 'f0.bin', size: 6 });
    expect(message.attachments[0]?.content.toString()).toBe('part 0');
    expect(message.warnings).toContain(`mime: more than ${LIMITS.maxMimeParts} parts, the rest skipped`);
  });

  it('walks parts that lack blank lines and closing delimiters without rescanning the message', async () => {
    const filler = 'x'.repeat(76);
    const parts = Array.from(
      { length: 900 },
      (_, i) =>
        `--outer\r\nContent-Type: multipart/mixed; boundary="inner${i}"\r\n--inner${i}\r\n${filler}\r\n`,
    );
    const bytes = Buffer.from(
      `${HEAD}Subject: unclosed\r\nContent-Type: multipart/mixed; boundary="outer"\r\n\r\n` +
        `--outer\r\nContent-Type: text/plain\r\n\r\nfirst part\r\n${parts.join('')}${`${filler}\r\n`.repeat(100_000)}`,
    );
    const message = await parseMessage(bytes);
    expect(message.subject).toBe('unclosed');
    expect(message.text?.startsWith('first part')).toBe(true);
  });

  it('keeps metadata but not content of an attachment over the size limit', async () => {
    const content = Buffer.alloc(LIMITS.maxAttachmentBytes + 1, 0x41);
    const bytes = Buffer.concat([
      Buffer.from(
        `${HEAD}Subject: big\r\nContent-Type: multipart/mixed; boundary="x"\r\n\r\n--x\r\nContent-Type: text/plain\r\n\r\n` +
          'huge file attached\r\n--x\r\nContent-Type: application/zip; name="backup.zip"\r\n' +
          'Content-Disposition: attachment; filename="backup.zip"\r\nContent-Transfer-Encoding: base64\r\n\r\n',
      ),
      Buffer.from(content.toString('base64').replace(/.{76}/g, '$&\r\n')),
      Buffer.from('\r\n--x--\r\n'),
    ]);
    const message = await parseMessage(bytes);
    const [attachment] = message.attachments;
    expect(attachment).toMatchObject({
      filename: 'backup.zip',
      contentType: 'application/zip',
      size: content.length,
    });
    expect(attachment?.content.length).toBe(0);
    expect(attachment?.sha256).toBe(createHash('sha256').update(content).digest('hex'));
    expect(message.text).toBe('huge file attached');
    expect(message.warnings).toContain(
      `attachment: backup.zip is ${content.length} bytes, over ${LIMITS.maxAttachmentBytes}; content not kept`,
    );
  });
});
