// A small loopback IMAP server that answers Gmail's IMAP extension (X-GM-EXT-1) the way Gmail's
// public documentation describes it (developers.google.com/gmail/imap/imap-extensions), for the
// tests of mailsift's Gmail sync. It is not Gmail and imitates no behaviour the documentation
// does not state. What it keeps: messages, each with labels and flags, its X-GM-MSGID and
// X-GM-THRID. Folders are views of them, as in Gmail: a label is a folder holding the messages
// that carry it, `[Gmail]/All Mail` (`\All`) holds every message but those in Trash and Spam, so
// one message with three labels has a UID in four folders. It speaks just what imapflow sends
// for a read-only sync: CAPABILITY, ID, LOGIN, AUTHENTICATE PLAIN, ENABLE (CONDSTORE; Gmail has
// no QRESYNC), NAMESPACE, LIST and LSUB with special-use attributes, SELECT/EXAMINE (UIDVALIDITY,
// UIDNEXT, HIGHESTMODSEQ), FETCH and UID FETCH (UID, FLAGS, RFC822.SIZE, INTERNALDATE, MODSEQ,
// X-GM-MSGID, X-GM-THRID, X-GM-LABELS, BODY[] and BODY.PEEK[], the CHANGEDSINCE modifier),
// UID SEARCH ALL, NOOP, IDLE and LOGOUT, in plaintext, on 127.0.0.1 only. It counts the bodies
// it sends, so a test can tell a download from a relabel.

import { createServer, type Server, type Socket } from 'node:net';

const CAPABILITIES_BEFORE_LOGIN =
  'IMAP4rev1 UNSELECT IDLE NAMESPACE ID CHILDREN X-GM-EXT-1 SASL-IR AUTH=PLAIN';
const CAPABILITIES =
  'IMAP4rev1 UNSELECT IDLE NAMESPACE ID CHILDREN X-GM-EXT-1 UIDPLUS ENABLE CONDSTORE SPECIAL-USE';

/** Gmail's folders for its system labels, with their special-use attributes (RFC 6154). */
const SYSTEM_FOLDERS: ReadonlyArray<{ name: string; use: string; label: string | null }> = [
  { name: '[Gmail]/All Mail', use: '\\All', label: null },
  { name: '[Gmail]/Drafts', use: '\\Drafts', label: '\\Draft' },
  { name: '[Gmail]/Important', use: '\\Important', label: '\\Important' },
  { name: '[Gmail]/Sent Mail', use: '\\Sent', label: '\\Sent' },
  { name: '[Gmail]/Spam', use: '\\Junk', label: '\\Spam' },
  { name: '[Gmail]/Starred', use: '\\Flagged', label: '\\Starred' },
  { name: '[Gmail]/Trash', use: '\\Trash', label: '\\Trash' },
];

interface GmailMessage {
  readonly id: string;
  readonly threadId: string;
  readonly raw: Buffer;
  readonly labels: Set<string>;
  readonly flags: Set<string>;
  modseq: number;
}

/** A folder's UIDs: each message gets the next one when it first enters the folder. */
interface FolderUids {
  readonly uidValidity: number;
  uidNext: number;
  readonly uids: Map<string, number>;
  /** The mod-sequence of the last message that left the folder. */
  leftAt: number;
}

export interface GmailServer {
  readonly host: '127.0.0.1';
  readonly port: number;
  readonly user: string;
  readonly password: string;
  /** Delivers a message with these labels (`\Inbox`, `\Sent`, user labels); returns its X-GM-MSGID. */
  add(raw: string, options?: { labels?: string[]; flags?: string[]; threadId?: string }): string;
  /** Adds and removes labels, as STORE X-GM-LABELS or Gmail's web interface would. */
  relabel(id: string, add: readonly string[], remove?: readonly string[]): void;
  /** Deletes the message for good (emptied from Trash). */
  remove(id: string): void;
  /** BODY[] items sent since the start. */
  bodiesSent(): number;
  /** Every command line received, tags stripped. */
  readonly commands: readonly string[];
  close(): Promise<void>;
}

export async function startGmailServer(
  user = 'alice@gmail.test',
  password = 'gmail-pw',
): Promise<GmailServer> {
  const messages = new Map<string, GmailMessage>();
  const folders = new Map<string, FolderUids>();
  const commands: string[] = [];
  let modseq = 1;
  let nextId = 1_700_000_000_000_000_000n;
  let bodies = 0;

  const inFolder = (name: string, m: GmailMessage): boolean => {
    const hidden = m.labels.has('\\Trash') || m.labels.has('\\Spam');
    const system = SYSTEM_FOLDERS.find((f) => f.name === name);
    if (system?.label === '\\Trash' || system?.label === '\\Spam') return m.labels.has(system.label);
    if (hidden) return false;
    if (system) return system.label === null || m.labels.has(system.label);
    return m.labels.has(name === 'INBOX' ? '\\Inbox' : name);
  };
  const folderNames = (): string[] => {
    const labels = new Set<string>();
    for (const m of messages.values()) for (const l of m.labels) if (!l.startsWith('\\')) labels.add(l);
    return ['INBOX', ...SYSTEM_FOLDERS.map((f) => f.name), ...[...labels].sort()];
  };
  /** Brings every folder's UIDs up to date with the messages' labels. */
  const reconcile = (): void => {
    for (const name of folderNames()) {
      let folder = folders.get(name);
      if (!folder) {
        folder = { uidValidity: folders.size + 1, uidNext: 1, uids: new Map(), leftAt: 0 };
        folders.set(name, folder);
      }
      for (const id of folder.uids.keys()) {
        const m = messages.get(id);
        if (m === undefined || !inFolder(name, m)) {
          folder.uids.delete(id);
          folder.leftAt = ++modseq;
        }
      }
      for (const m of messages.values())
        if (inFolder(name, m) && !folder.uids.has(m.id)) folder.uids.set(m.id, folder.uidNext++);
    }
  };
  const touch = (m: GmailMessage): void => {
    m.modseq = ++modseq;
    reconcile();
  };

  const server: Server = createServer((socket) => new Session(socket).start());
  const sessions = new Set<Socket>();

  class Session {
    private selected: { uids: Array<{ uid: number; message: GmailMessage }> } | null = null;
    private pending = Buffer.alloc(0);
    /** A command line up to a literal, the literal's text quoted in, and the bytes still to come. */
    private carried = '';
    private literalBytes: number | null = null;
    private continuation: ((line: string) => Reply) | null = null;
    private closing = false;

    constructor(private readonly socket: Socket) {}

    start(): void {
      sessions.add(this.socket);
      this.socket.on('close', () => sessions.delete(this.socket));
      this.socket.on('error', () => {});
      this.socket.on('data', (chunk: Buffer) => this.receive(chunk));
      this.send(`* OK [CAPABILITY ${CAPABILITIES_BEFORE_LOGIN}] mailsift's Gmail stand-in ready`);
    }

    private send(line: string | Buffer): void {
      this.socket.write(typeof line === 'string' ? `${line}\r\n` : line);
    }

    /** Splits the stream into command lines, a synchronising literal (`{n}`) read into its line. */
    private receive(chunk: Buffer): void {
      this.pending = Buffer.concat([this.pending, chunk]);
      for (;;) {
        if (this.literalBytes !== null) {
          if (this.pending.length < this.literalBytes) return;
          this.carried += quote(this.pending.subarray(0, this.literalBytes).toString('utf8'));
          this.pending = this.pending.subarray(this.literalBytes);
          this.literalBytes = null;
        }
        const end = this.pending.indexOf('\r\n');
        if (end < 0) return;
        const line = this.carried + this.pending.subarray(0, end).toString('utf8');
        this.pending = this.pending.subarray(end + 2);
        this.carried = '';
        const literal = /\{(\d+)\+?\}$/.exec(line);
        if (literal) {
          this.carried = line.slice(0, literal.index);
          this.literalBytes = Number(literal[1]);
          if (!line.endsWith('+}')) this.send('+ Ready for literal data');
          continue;
        }
        this.handle(line);
      }
    }

    private handle(line: string): void {
      const continuation = this.continuation;
      this.continuation = null;
      const reply = continuation ? continuation(line) : this.command(line);
      for (const part of reply) this.send(part);
      if (this.closing) this.socket.end();
    }

    /** The lines a command is answered with, its tagged status last. */
    private command(line: string): Reply {
      const space = line.indexOf(' ');
      const tag = line.slice(0, space);
      const rest = tokenize(line.slice(space + 1));
      let name = String(rest.shift() ?? '').toUpperCase();
      if (name === 'UID') name = `UID ${String(rest.shift() ?? '').toUpperCase()}`;
      commands.push(line.slice(space + 1));
      return this.settle(tag, name, () => this.answer(name, rest));
    }

    /** Ends a command with its status, or asks for the continuation it waits for. */
    private settle(tag: string, name: string, run: () => Answer): Reply {
      try {
        const answer = run();
        if ('prompt' in answer) {
          this.continuation = (line) => this.settle(tag, name, () => answer.next(line));
          return [answer.prompt];
        }
        return [...answer, `${tag} OK ${name} completed (Success)`];
      } catch (error) {
        return [`${tag} ${(error as Error).message}`];
      }
    }

    /** The untagged lines of a command; a refusal is thrown as its `NO …` or `BAD …` status. */
    private answer(name: string, args: Token[]): Answer {
      switch (name) {
        case 'CAPABILITY':
          return [`* CAPABILITY ${CAPABILITIES}`];
        case 'ID':
          return ['* ID ("name" "mailsift Gmail stand-in" "vendor" "mailsift tests")'];
        case 'LOGIN':
          return this.login(String(args[0]), String(args[1]));
        case 'AUTHENTICATE':
          if (String(args[0]).toUpperCase() !== 'PLAIN') throw new Error('NO [CANNOT] only PLAIN here');
          // SASL-IR (RFC 4959) puts the response on the command line; without it, one line later.
          if (args[1] !== undefined) return this.login(...plainCredentials(String(args[1])));
          return { prompt: '+ ', next: (line) => this.login(...plainCredentials(line)) };
        case 'ENABLE':
          return [
            `* ENABLED${args
              .map(String)
              .filter((c) => c.toUpperCase() === 'CONDSTORE')
              .map((c) => ` ${c}`)
              .join('')}`,
          ];
        case 'NAMESPACE':
          return ['* NAMESPACE (("" "/")) NIL NIL'];
        case 'LIST':
        case 'LSUB':
          reconcile();
          return ['[Gmail]', ...folderNames()].map(
            (folder) => `* ${name} (${listFlags(folder)}) "/" ${quote(folder)}`,
          );
        case 'SELECT':
        case 'EXAMINE':
          return this.select(String(args[0]));
        case 'NOOP':
        case 'CHECK':
          return [];
        case 'UNSELECT':
        case 'CLOSE':
          this.selected = null;
          return [];
        case 'IDLE':
          return { prompt: '+ idling', next: () => [] };
        case 'LOGOUT':
          this.closing = true;
          return ['* BYE LOGOUT Requested'];
        case 'SEARCH':
        case 'UID SEARCH': {
          const uids = this.selected?.uids ?? [];
          return [`* SEARCH${uids.map((u, i) => ` ${name === 'SEARCH' ? i + 1 : u.uid}`).join('')}`];
        }
        case 'FETCH':
        case 'UID FETCH':
          return this.fetch(args, name === 'UID FETCH');
        default:
          throw new Error(`BAD ${name} is not supported here`);
      }
    }

    private login(login: string, secret: string): Reply {
      if (login !== user || secret !== password)
        throw new Error('NO [AUTHENTICATIONFAILED] Invalid credentials (Failure)');
      return [];
    }

    private select(name: string): Reply {
      reconcile();
      const folder = folders.get(name);
      if (!folder) throw new Error(`NO [NONEXISTENT] Unknown Mailbox: ${name}`);
      const uids = [...folder.uids]
        .map(([id, uid]) => ({ uid, message: messages.get(id) as GmailMessage }))
        .sort((a, b) => a.uid - b.uid);
      this.selected = { uids };
      const highest = Math.max(folder.leftAt, ...uids.map((u) => u.message.modseq), 1);
      return [
        '* FLAGS (\\Answered \\Flagged \\Draft \\Deleted \\Seen $NotPhishing $Phishing)',
        '* OK [PERMANENTFLAGS ()] Flags permitted.',
        `* OK [UIDVALIDITY ${folder.uidValidity}] UIDs valid.`,
        `* ${uids.length} EXISTS`,
        '* 0 RECENT',
        `* OK [UIDNEXT ${folder.uidNext}] Predicted next UID.`,
        `* OK [HIGHESTMODSEQ ${highest}]`,
      ];
    }

    private fetch(args: Token[], byUid: boolean): Reply {
      const selected = this.selected;
      if (!selected) throw new Error('BAD No mailbox selected');
      const [set, itemsToken, modifiers] = args;
      const items = (Array.isArray(itemsToken) ? itemsToken : [itemsToken]).map((i) =>
        String(i).toUpperCase(),
      );
      if (byUid && !items.includes('UID')) items.unshift('UID');
      const changedSince = Array.isArray(modifiers) ? changedSinceOf(modifiers) : null;
      const list = selected.uids;
      const wanted = parseSet(String(set), byUid ? (list.at(-1)?.uid ?? 0) : list.length);
      return list.flatMap(({ uid, message }, index) => {
        if (!wanted(byUid ? uid : index + 1)) return [];
        if (changedSince !== null && message.modseq <= changedSince) return [];
        const parts = items.flatMap((item, i) => {
          const value = this.item(item, uid, message);
          const head = Buffer.from(`${i === 0 ? '' : ' '}${typeof value === 'string' ? value : value.head}`);
          return typeof value === 'string' ? [head] : [head, value.literal];
        });
        return [Buffer.concat([Buffer.from(`* ${index + 1} FETCH (`), ...parts, Buffer.from(')\r\n')])];
      });
    }

    /** A FETCH item's answer: a string, or a literal's `{n}` head and bytes. */
    private item(item: string, uid: number, m: GmailMessage): string | { head: string; literal: Buffer } {
      switch (item) {
        case 'UID':
          return `UID ${uid}`;
        case 'FLAGS':
          return `FLAGS (${[...m.flags].join(' ')})`;
        case 'RFC822.SIZE':
          return `RFC822.SIZE ${m.raw.length}`;
        case 'INTERNALDATE':
          return 'INTERNALDATE "01-Jan-2026 00:00:00 +0000"';
        case 'MODSEQ':
          return `MODSEQ (${m.modseq})`;
        case 'X-GM-MSGID':
          return `X-GM-MSGID ${m.id}`;
        case 'X-GM-THRID':
          return `X-GM-THRID ${m.threadId}`;
        case 'X-GM-LABELS':
          return `X-GM-LABELS (${[...m.labels].map((l) => (l.startsWith('\\') ? l : astring(l))).join(' ')})`;
        case 'BODY[]':
        case 'BODY.PEEK[]':
          bodies++;
          return { head: `BODY[] {${m.raw.length}}\r\n`, literal: m.raw };
        default:
          throw new Error(`FETCH item ${item} is not supported here`);
      }
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return {
    host: '127.0.0.1',
    port: address.port,
    user,
    password,
    commands,
    add(raw, options = {}) {
      const id = String(nextId++);
      messages.set(id, {
        id,
        threadId: options.threadId ?? id,
        raw: Buffer.from(raw),
        labels: new Set(options.labels ?? ['\\Inbox']),
        flags: new Set(options.flags ?? []),
        modseq: 0,
      });
      touch(messages.get(id) as GmailMessage);
      return id;
    },
    relabel(id, add, remove = []) {
      const m = messages.get(id);
      if (!m) throw new Error(`no message ${id}`);
      for (const label of add) m.labels.add(label);
      for (const label of remove) m.labels.delete(label);
      touch(m);
    },
    remove(id) {
      messages.delete(id);
      reconcile();
    },
    bodiesSent: () => bodies,
    async close() {
      for (const socket of sessions) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** What a command answers: untagged lines and literals, before its tagged status. */
type Reply = ReadonlyArray<string | Buffer>;
/** Or a continuation request (`+ …`) and what the next line is answered with. */
type Answer = Reply | { readonly prompt: string; readonly next: (line: string) => Reply };

/** AUTHENTICATE PLAIN's response (RFC 4616): authzid NUL authcid NUL password, in base64. */
function plainCredentials(encoded: string): [string, string] {
  const [, login = '', secret = ''] = Buffer.from(encoded, 'base64').toString('utf8').split('\u0000');
  return [login, secret];
}

/** A parsed argument: an atom or string, or a parenthesised list of them. */
type Token = string | Token[];

/** Atoms (with any `[...]` section), quoted strings and parenthesised lists of a command line. */
function tokenize(text: string): Token[] {
  const root: Token[] = [];
  const stack: Token[][] = [root];
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    const top = stack.at(-1) as Token[];
    if (c === ' ') i++;
    else if (c === '(') {
      const list: Token[] = [];
      top.push(list);
      stack.push(list);
      i++;
    } else if (c === ')') {
      stack.pop();
      i++;
    } else if (c === '"') {
      let value = '';
      for (i++; i < text.length && text[i] !== '"'; i++) value += text[i] === '\\' ? text[++i] : text[i];
      top.push(value);
      i++;
    } else {
      let value = '';
      let depth = 0;
      for (; i < text.length; i++) {
        const d = text[i] as string;
        if (d === '[') depth++;
        else if (d === ']') depth--;
        else if (depth === 0 && (d === ' ' || d === '(' || d === ')')) break;
        value += d;
      }
      top.push(value);
    }
  }
  return root;
}

function changedSinceOf(modifiers: Token[]): number | null {
  const at = modifiers.findIndex((m) => String(m).toUpperCase() === 'CHANGEDSINCE');
  return at < 0 ? null : Number(modifiers[at + 1]);
}

/** A sequence set (`1:*`, `3,5:7`) as a membership test; `*` is the largest number. */
function parseSet(set: string, max: number): (n: number) => boolean {
  const ranges = set.split(',').map((part) => {
    const [a, b = a] = part.split(':').map((v) => (v === '*' ? max : Number(v))) as [number, number?];
    return [Math.min(a, b as number), Math.max(a, b as number)] as const;
  });
  return (n) => ranges.some(([low, high]) => n >= low && n <= high);
}

function listFlags(folder: string): string {
  if (folder === '[Gmail]') return '\\Noselect \\HasChildren';
  const system = SYSTEM_FOLDERS.find((f) => f.name === folder);
  return `\\HasNoChildren${system ? ` ${system.use}` : ''}`;
}

/** An atom when it can be one, else a quoted string (Gmail's "Muy Importante"). */
function astring(value: string): string {
  return /^[A-Za-z0-9_.\-/]+$/.test(value) ? value : quote(value);
}

function quote(value: string): string {
  return `"${value.replace(/["\\]/g, '\\$&')}"`;
}
