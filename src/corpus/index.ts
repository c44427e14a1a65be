// Public interface of the corpus module: the bulk generator, the message composer the
// bundled sample uses, and writers for Maildir++ and mbox.

export { makePdf } from './attachments.js';
export { type AttachmentSpec, composeMessage, type MessageSpec } from './compose.js';
export { type Charset, decodeText, encodeText, type Mailbox, type TransferEncoding } from './encode.js';
export { type CorpusOptions, type GeneratedMessage, generateCorpus } from './generator.js';
export { buildSample, SAMPLE_OWNER, type SampleMessage, takeoutLabels, type Where } from './sample/index.js';
export {
  type MailboxEntry,
  type MboxOptions,
  mboxrdEscape,
  type WriteStats,
  writeMaildir,
  writeMbox,
} from './writers.js';
