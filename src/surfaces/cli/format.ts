// Plain-text and JSON renderings of messages shared by show, thread and search output.

import type { Address } from '../../core/types.js';
import type { StoredMessage } from '../../store/index.js';

export function formatAddress(address: Address | null): string {
  if (!address) return '';
  return address.name ? `${address.name} <${address.address}>` : address.address;
}

export function formatAddresses(list: readonly Address[]): string {
  return list.map(formatAddress).join(', ');
}

/** The JSON form of a stored message: the fields an agent needs, nothing internal. */
export function messageJson(message: StoredMessage): Record<string, unknown> {
  return {
    inboxId: message.inbox,
    threadId: message.threadId,
    messageId: message.messageId,
    variantOf: message.variantOf ?? undefined,
    labels: message.labels,
    folders: message.folders,
    timestamp: message.date.toISOString(),
    from: message.from,
    to: message.to,
    cc: message.cc,
    bcc: message.bcc,
    replyTo: message.replyTo,
    subject: message.subject,
    inReplyTo: message.inReplyTo,
    references: message.references,
    auth: message.auth,
    attachments: message.attachments.map(({ extraction, ...meta }, ordinal) => ({
      attachmentId: String(ordinal),
      ...meta,
      extraction: extraction && {
        status: extraction.status,
        reason: extraction.reason,
        format: extraction.format,
        language: extraction.language,
        truncated: extraction.truncated,
        textLength: extraction.text.length,
      },
    })),
    authored: message.cleaned.authored,
    quoted: message.cleaned.quoted,
    forwarded: message.cleaned.forwarded,
    signature: message.cleaned.signature,
    disclaimer: message.cleaned.disclaimer,
    footer: message.cleaned.footer,
    warnings: message.warnings.length > 0 ? message.warnings : undefined,
  };
}

/** Header block + authored text, with the quoted history collapsed to one line. */
export function messageText(message: StoredMessage): string {
  const lines = [
    `Message-ID: ${message.messageId}${message.variantOf ? `  (variant of ${message.variantOf})` : ''}`,
    `From:       ${formatAddress(message.from)}`,
    `To:         ${formatAddresses(message.to)}`,
  ];
  if (message.cc.length > 0) lines.push(`Cc:         ${formatAddresses(message.cc)}`);
  lines.push(
    `Subject:    ${message.subject}`,
    `Date:       ${message.date.toISOString()}${message.dateSource === 'date' ? '' : ` (from ${message.dateSource})`}`,
    `Inbox:      ${message.inbox}`,
    `Thread:     ${message.threadId}`,
    `Labels:     ${message.labels.join(', ')}`,
    `Folders:    ${message.folders.join(', ')}`,
  );
  for (const [i, a] of message.attachments.entries()) {
    const extraction = a.extraction;
    const text = !extraction
      ? 'not extracted'
      : extraction.status === 'ok'
        ? `${extraction.format} text, ${extraction.text.length} chars`
        : `${extraction.status}: ${extraction.reason}`;
    lines.push(
      `Attachment: [${i}] ${a.filename ?? '(unnamed)'} (${a.contentType}, ${a.size} bytes; ${text})`,
    );
  }
  const cleaned = message.cleaned;
  lines.push('', cleaned.authored || '(no authored text)');
  for (const block of cleaned.forwarded) {
    lines.push(
      '',
      `---- forwarded${block.from ? ` from ${block.from}` : ''}${block.date ? ` on ${block.date}` : ''} ----`,
      block.text,
    );
  }
  if (cleaned.signature) lines.push('', `-- \n${cleaned.signature}`);
  if (cleaned.quoted) lines.push('', `[… ${cleaned.quoted.split('\n').length} quoted lines collapsed]`);
  return lines.join('\n');
}
