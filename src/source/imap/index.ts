// IMAP sources: loaded only when a source is an imap:// or imaps:// URL, so that file
// sources and the read commands never load imapflow.

import { type CredentialMethod, parseCredential } from './credentials.js';
import { type ImapWatcher, idleFolders, watchImap } from './idle.js';
import { ImapSource } from './imap-source.js';
import { type FolderSelection, type ImapAddress, parseImapUrl } from './url.js';

export type { CredentialMethod } from './credentials.js';
export type { ImapWatcher } from './idle.js';

export interface ImapOpenOptions extends FolderSelection {
  /** How to find the password; default: the method recorded with the source, else the environment. */
  readonly credential?: CredentialMethod;
  readonly tlsCa?: string;
  /** The credential method recorded for a canonical source URL, if any. */
  readonly recorded?: (canonical: string) => string | undefined;
}

export function openImapSource(url: string, options: ImapOpenOptions = {}): ImapSource {
  const { address, credential } = resolve(url, options);
  return new ImapSource(address, { credential, ...(options.tlsCa ? { tlsCa: options.tlsCa } : {}) });
}

/**
 * Keeps the folders of the source at `url` in IDLE (those it names, else INBOX and the folders
 * its syncs saw, `synced`; see idleFolders); `onChange` when the server announces a change.
 */
export function watchImapFolders(
  url: string,
  options: ImapOpenOptions & {
    readonly synced?: (canonical: string) => readonly string[];
    onChange: () => void;
    onError: (message: string) => void;
  },
): ImapWatcher {
  const { address, credential } = resolve(url, options);
  return watchImap(address, idleFolders(address, options.synced?.(address.canonical) ?? []), {
    ...options,
    credential,
  });
}

function resolve(
  url: string,
  options: ImapOpenOptions,
): { address: ImapAddress; credential: CredentialMethod } {
  const address = parseImapUrl(url, options);
  const recorded = options.recorded?.(address.canonical);
  return {
    address,
    credential: options.credential ?? (recorded ? parseCredential(recorded) : { kind: 'env' }),
  };
}
