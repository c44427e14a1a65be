// The typed stages of the ingest flow: a source yields SourceEntry values, parse turns
// their bytes into a ParsedMessage, clean splits its body into a CleanedBody.
// Every module imports these shapes from here so the stages cannot drift apart.

/** Which kind of mailbox a file source reads. */
export type FileSourceKind = 'mbox' | 'maildir' | 'eml';
/** Which kind of mailbox a source reads: files, or a server. */
export type SourceKind = FileSourceKind | 'imap';

/**
 * One message as a source sees it, before its bytes are read.
 * `key` is stable across runs for the same message at the same place, so a later run
 * can tell what disappeared; `fingerprint` changes whenever the stored bytes may have
 * changed (size + mtime for files, content hash for mbox), so unchanged messages are
 * skipped without reading them.
 */
export interface SourceEntry {
  /** Stable identity of this location within its source (relative path, mbox hash + ordinal). */
  readonly key: string;
  /** Folder the message sits in ('' for the top level, 'INBOX', 'Archive/2024', mbox file name). */
  readonly folder: string;
  /** Labels derived from the location itself (Maildir flags: seen, replied, flagged, trashed, draft). */
  readonly labels: readonly string[];
  /** Cheap change detector: equal fingerprints mean the bytes need not be read again. */
  readonly fingerprint: string;
  /** Modification time of the file holding the message: last fallback for the date. */
  readonly fileTime: Date | null;
  /** Reads the message bytes (mbox entries already hold them). */
  read(): Promise<Buffer>;
  /**
   * The bytes at this key never change (an IMAP UID within its UIDVALIDITY): a changed
   * fingerprint then means changed labels only, and the stored message is kept unread.
   */
  readonly fixedContent?: boolean;
  /**
   * What the source knows of the message before reading it (an IMAP envelope): a message of
   * this source stored with this Message-ID and raw size is taken without reading the bytes
   * (a message moved between folders, a folder whose UIDVALIDITY changed).
   */
  readonly identity?: { readonly messageId: string; readonly size: number };
  /**
   * A conversation the source knows beside the bytes (Gmail's X-GM-THRID as `gm:<id>`, the
   * key its header would give): threads the message like a provider thread key of its own.
   */
  readonly threadKey?: string;
}

/**
 * What a server mailbox's last complete sync saw in one folder, kept in the archive in the
 * transaction that ends the sync: UIDs below `uidNext` under this `uidValidity` were stored.
 */
export interface FolderState {
  readonly folder: string;
  readonly uidValidity: string;
  readonly uidNext: number;
  /** CONDSTORE's HIGHESTMODSEQ, or null when the server has none. */
  readonly highestModseq: string | null;
  readonly messages: number;
}

/** A folder's last complete sync with what the archive holds of it now. */
export interface StoredFolder extends FolderState {
  /** Locations and recorded failures of the source in this folder: what a change count starts from. */
  readonly stored: number;
}

/** What the archive tells a resuming server source about the locations it holds of it. */
export interface StoredLocations {
  /** How many of these keys the archive holds a location or a failure of. */
  count(keys: readonly string[]): number;
}

/**
 * A folder whose stored locations stand without being listed: all of them (the server says it
 * is unchanged), or all but the keys of `gone` (expunged, as CONDSTORE/QRESYNC reported).
 */
export interface KeptFolder {
  readonly folder: string;
  readonly gone: readonly string[];
}

/** A source on a server: it remembers what it saw and how it logs in, never a secret. */
export interface RemoteSync {
  /** How credentials are found ('env', 'file:PATH', 'command:CMD'), recorded with the source. */
  readonly credential: string;
  /** Logs in and checks the folders: throws a typed error naming the source, before any write. */
  connect(): Promise<void>;
  /** Hands the source what the archive recorded at its last complete sync; before scan(). */
  resume(states: readonly StoredFolder[], stored: StoredLocations): void;
  /** What the completed scan saw, per folder. */
  states(): readonly FolderState[];
  /**
   * Folders the scan did not list whole: unchanged since the last complete sync (CONDSTORE:
   * same UIDVALIDITY, UIDNEXT, HIGHESTMODSEQ and count), or synced from their changes alone
   * (CHANGEDSINCE, VANISHED); their stored locations are kept but for the `gone` keys.
   */
  keptFolders(): readonly KeptFolder[];
  /** Closes the connection; the source cannot scan again. */
  close(): Promise<void>;
}

/**
 * Files under a source's root passed over as not mail (index and state files of mail
 * servers and sync tools, editor backups, ...), one row per kind, so that nothing is
 * skipped silently.
 */
export interface SkippedFiles {
  /** Short stable name of the kind ('dovecot', 'editor-backup', 'not-mail', ...). */
  readonly kind: string;
  /** Why files of this kind are not read as mail. */
  readonly reason: string;
  /** Files (or whole directories, for tool databases and hidden directories) of this kind. */
  readonly count: number;
  /** Absolute path of the first one met, so the user can look at it. */
  readonly example: string;
}

/** A mailbox on disk that can be scanned for messages. */
export interface MailSource {
  readonly kind: SourceKind;
  /** Absolute path of the mailbox (file or directory), or its URL without a secret. */
  readonly path: string;
  /** Streams every message present now. Throws MailsiftError for unreadable roots. */
  scan(): AsyncIterable<SourceEntry>;
  /** What the last complete scan passed over as not mail, per kind; empty before one. */
  skipped(): readonly SkippedFiles[];
  /** Present for a mailbox on a server (IMAP). */
  readonly remote?: RemoteSync;
}

export interface Address {
  /** Display name, decoded; '' when absent. */
  readonly name: string;
  /** Address lowercased, so every match on it is case-insensitive. */
  readonly address: string;
}

/** Verdicts from Authentication-Results; absent methods are undefined. */
export interface AuthVerdicts {
  readonly dmarc?: string;
  readonly spf?: string;
  readonly dkim?: string;
}

export interface ParsedAttachment {
  /** Decoded filename (RFC 2047 / RFC 2231), or null when the part has none. */
  readonly filename: string | null;
  readonly contentType: string;
  readonly size: number;
  readonly contentId: string | null;
  readonly inline: boolean;
  /** sha256 of the decoded content, hex. */
  readonly sha256: string;
  readonly content: Buffer;
}

export type DateSource = 'date' | 'received' | 'file' | 'none';

/** The header fields every later stage carries along: parsed, prepared and stored alike. */
export interface MessageEnvelope {
  readonly from: Address | null;
  readonly to: readonly Address[];
  readonly cc: readonly Address[];
  readonly bcc: readonly Address[];
  readonly replyTo: readonly Address[];
  readonly subject: string;
  /** Best date known, see dateSource; epoch 0 only when nothing at all was usable. */
  readonly date: Date;
  readonly dateSource: DateSource;
  /** References in order, oldest first, without brackets, deduplicated, capped by limits. */
  readonly references: readonly string[];
  readonly inReplyTo: string | null;
  readonly auth: AuthVerdicts;
  /** List-Id / Precedence: bulk markers that later stages use for footers and ranking. */
  readonly listId: string | null;
  /** Non-fatal problems met while parsing (charset fallback, truncated header...). */
  readonly warnings: readonly string[];
}

export interface ParsedMessage extends MessageEnvelope {
  /** Message-ID without angle brackets, or null when missing or unusable. */
  readonly messageId: string | null;
  readonly text: string | null;
  readonly html: string | null;
  readonly attachments: readonly ParsedAttachment[];
  /** Gmail's X-GM-THRID, when present. */
  readonly gmailThreadId: string | null;
  /** Conversation part (first 22 bytes, base64) of Outlook's Thread-Index, when present. */
  readonly outlookThreadIndex: string | null;
  /**
   * Labels the message states about itself: X-Gmail-Labels (Google Takeout mbox),
   * X-Keywords, and the mbox Status/X-Status flags (seen, replied, flagged, trashed, draft).
   */
  readonly labels: readonly string[];
}

/** The kinds of span the cleaning stage assigns to the flattened body text. */
export type SpanKind = 'authored' | 'quoted' | 'forwarded' | 'signature' | 'disclaimer' | 'footer';

/** A half-open character range [start, end) of CleanedBody.body, with its kind. */
export interface BodySpan {
  readonly kind: SpanKind;
  readonly start: number;
  readonly end: number;
}

export interface ForwardedBlock {
  readonly from: string | null;
  readonly date: string | null;
  readonly subject: string | null;
  readonly text: string;
}

export interface CleanedBody {
  /** Which part the body came from. */
  readonly source: 'text' | 'html' | 'none';
  /** The flattened body text every span points into. */
  readonly body: string;
  readonly spans: readonly BodySpan[];
  readonly authored: string;
  readonly quoted: string;
  readonly forwarded: readonly ForwardedBlock[];
  readonly signature: string;
  readonly disclaimer: string;
  readonly footer: string;
}
