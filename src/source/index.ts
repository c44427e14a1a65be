// The source module: mailboxes on disk (mbox files, mail trees of Maildir folders, loose
// messages and mbox files) read as streams of SourceEntry values. Other modules import only
// from here.
export type { SourceOptions } from './fs-util.js';
export type { CredentialMethod, ImapOpenOptions } from './imap/index.js';
export { isImapUrl } from './imap/url.js';
export { type MailTreeOptions, MailTreeSource } from './mail-tree-source.js';
export { type MboxOptions, MboxSource } from './mbox-source.js';
export type { MboxFormat } from './mbox-splitter.js';
export { detectKind, type OpenSourceOptions, openSource } from './open-source.js';
