// The source module: mailboxes on disk (mbox, Maildir/Maildir++, .eml trees) read as
// streams of SourceEntry values. Other modules import only from here.
export { EmlTreeSource } from './eml-tree-source.js';
export type { SourceOptions } from './fs-util.js';
export { MaildirSource } from './maildir-source.js';
export { type MboxOptions, MboxSource } from './mbox-source.js';
export type { MboxFormat } from './mbox-splitter.js';
export { detectKind, type OpenSourceOptions, openSource } from './open-source.js';
