// Attachments that hold attachments: zip archives (entries listed, supported files
// extracted within the zip limits), nested message/rfc822 (text, headers, attachments)
// and winmail.dat (TNEF body and inner files).
import { basename } from 'node:path';
import { htmlToText } from '../clean/index.js';
import { describeError } from '../core/errors.js';
import { parseMessage } from '../parse/index.js';
import { childBlock, failed, skipped } from './outcome.js';
import { sniffType } from './sniff.js';
import { readTnef } from './tnef.js';
import type { AttachmentInput, ExtractContext, ExtractionChild, FormatResult } from './types.js';
import { SkipExtraction } from './types.js';
import { inflateEntry, readZipDirectory, refuseEntry } from './zip-reader.js';

/** Refuses a container nested deeper than zipMaxDepth (42.zip-style recursion). */
function assertDepth(context: ExtractContext): void {
  if (context.depth >= context.limits.zipMaxDepth) throw new SkipExtraction('zip depth limit');
}

/** Extracts children in order while the container's text budget lasts. */
class ChildCollector {
  readonly children: ExtractionChild[] = [];
  private readonly blocks: string[] = [];
  private budget: number;
  truncated = false;

  constructor(private readonly context: ExtractContext) {
    this.budget = context.limits.maxTextChars;
  }

  get exhausted(): boolean {
    return this.budget <= 0;
  }

  async extract(name: string, input: AttachmentInput): Promise<void> {
    const extraction = await this.context.extractChild(input, {
      ...this.context.limits,
      maxTextChars: Math.max(1, this.budget),
    });
    this.add(name, extraction);
  }

  add(name: string, extraction: ExtractionChild['extraction']): void {
    this.children.push({ name, extraction });
    const block = childBlock(name, extraction);
    this.blocks.push(block);
    this.budget -= block.length + 2;
    if (extraction.truncated) this.truncated = true;
  }

  result(lead = ''): FormatResult {
    const text = [lead, ...this.blocks].filter(Boolean).join('\n\n');
    return { text, truncated: this.truncated, children: this.children };
  }
}

export async function extractZip(content: Buffer, context: ExtractContext): Promise<FormatResult> {
  assertDepth(context);
  const { limits } = context;
  const { entries, omitted } = readZipDirectory(content, limits.zipMaxEntries);
  const collector = new ChildCollector(context);
  if (omitted > 0) collector.truncated = true;
  let inflated = 0;
  for (const entry of entries) {
    if (entry.directory) continue;
    const type = sniffType(Buffer.alloc(0), 'application/octet-stream', entry.name);
    const refusal =
      refuseEntry(entry, limits, inflated) ??
      (entry.size > limits.maxBytes ? `too large (${entry.size} bytes, limit ${limits.maxBytes})` : null);
    if (refusal || collector.exhausted) {
      if (refusal === 'zip size limit' || !refusal) collector.truncated = true;
      collector.add(entry.name, skipped(type, refusal ?? 'text limit'));
      continue;
    }
    let bytes: Buffer;
    try {
      bytes = inflateEntry(content, entry);
    } catch (error) {
      collector.add(entry.name, failed(type, describeError(error)));
      continue;
    }
    inflated += entry.size;
    await collector.extract(entry.name, {
      filename: basename(entry.name),
      contentType: 'application/octet-stream',
      content: bytes,
    });
  }
  return collector.result();
}

export async function extractMessage(content: Buffer, context: ExtractContext): Promise<FormatResult> {
  const parsed = await parseMessage(content);
  const body = (parsed.text?.trim() ? parsed.text : parsed.html ? htmlToText(parsed.html) : '').trim();
  const message = {
    subject: parsed.subject,
    from: parsed.from,
    to: [...parsed.to],
    date: parsed.dateSource === 'none' ? null : parsed.date.toISOString(),
  };
  const collector = new ChildCollector(context);
  if (parsed.attachments.length > 0 && context.depth < context.limits.zipMaxDepth) {
    for (const [n, attachment] of parsed.attachments.entries()) {
      if (attachment.inline && !attachment.filename) continue;
      const name = attachment.filename ?? `attachment-${n + 1}`;
      await collector.extract(name, attachment);
    }
  } else if (parsed.attachments.length > 0) collector.truncated = true;
  return { ...collector.result(body), message };
}

export async function extractTnef(content: Buffer, context: ExtractContext): Promise<FormatResult> {
  assertDepth(context);
  const { body, attachments } = readTnef(content);
  const collector = new ChildCollector(context);
  for (const attachment of attachments) {
    await collector.extract(attachment.name, {
      filename: attachment.name,
      contentType: attachment.contentType,
      content: attachment.data,
    });
  }
  return collector.result(body.trim());
}
