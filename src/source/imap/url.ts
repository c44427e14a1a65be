// An IMAP source named by URL: `imaps://user@host[:port][/folder]`, or `imap://…`, which
// must upgrade with STARTTLS unless the host is loopback. The canonical form (no password,
// folder selection as a query) is the recorded source's path, so the
// same mailbox with the same folders is one source across ingest and watch runs.

import { isIP } from 'node:net';
import { MailsiftError } from '../../core/errors.js';

export interface ImapAddress {
  readonly secure: boolean;
  readonly host: string;
  readonly port: number;
  readonly user: string;
  /** Folders to sync; empty means every selectable folder but `exclude`. */
  readonly folders: readonly string[];
  readonly exclude: readonly string[];
  /** The URL without secrets: the recorded source path. */
  readonly canonical: string;
}

/** Whether a source argument is an IMAP URL rather than a path. */
export function isImapUrl(value: string): boolean {
  return /^imaps?:\/\//i.test(value);
}

/** Loopback hosts, the only ones `imap://` may talk to without TLS. */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  if (bare === 'localhost' || bare === '::1') return true;
  return isIP(bare) === 4 && bare.startsWith('127.');
}

export interface FolderSelection {
  readonly folders?: readonly string[];
  readonly exclude?: readonly string[];
}

export function parseImapUrl(value: string, selection: FolderSelection = {}): ImapAddress {
  const invalid = (why: string): MailsiftError =>
    new MailsiftError('invalid_argument', `${why}: expected imaps://user@host[:port][/folder]`, {
      param: redact(value),
    });
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid('not a URL');
  }
  const secure = url.protocol === 'imaps:';
  if (!secure && url.protocol !== 'imap:') throw invalid(`unknown scheme ${url.protocol}`);
  // A password in the URL would end up in shell history, the archive and logs.
  if (url.password !== '')
    throw new MailsiftError(
      'invalid_argument',
      'the URL holds a password: give it with MAILSIFT_IMAP_PASSWORD, --password-file or --password-command',
      { param: redact(value) },
    );
  const user = decodeURIComponent(url.username);
  if (user === '') throw invalid('no user name');
  if (url.hostname === '') throw invalid('no host');
  if (url.hash !== '') throw invalid('a fragment is not part of a mailbox URL');
  // The canonical form's query (a recorded source read back) holds a folder selection.
  const params = url.searchParams;
  for (const key of params.keys())
    if (key !== 'folder' && key !== 'exclude') throw invalid(`unknown URL parameter '${key}'`);
  const defaultPort = secure ? 993 : 143;
  const port = url.port === '' ? defaultPort : Number(url.port);
  const host = url.hostname.toLowerCase();
  const pathFolder = decodeURIComponent(url.pathname.replace(/^\/+|\/+$/g, ''));
  const folders = unique([
    ...(pathFolder ? [pathFolder] : []),
    ...params.getAll('folder'),
    ...(selection.folders ?? []),
  ]);
  const exclude = unique([...params.getAll('exclude'), ...(selection.exclude ?? [])]);
  const base = `${secure ? 'imaps' : 'imap'}://${encodeURIComponent(user)}@${host}${port === defaultPort ? '' : `:${port}`}`;
  const query = [
    ...folders.slice(pathFolder ? 1 : 0).map((f) => `folder=${encodeURIComponent(f)}`),
    ...exclude.map((f) => `exclude=${encodeURIComponent(f)}`),
  ];
  const canonical = `${base}/${pathFolder ? encodeURIComponent(pathFolder) : ''}${query.length ? `?${query.join('&')}` : ''}`;
  return { secure, host: host.replace(/^\[|\]$/g, ''), port, user, folders, exclude, canonical };
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values.map((v) => v.trim()).filter((v) => v !== ''))];
}

/** The URL with any password replaced, for error messages. */
function redact(value: string): string {
  return value.replace(/^(imaps?:\/\/[^:@/]*):[^@/]*@/i, '$1:***@');
}
