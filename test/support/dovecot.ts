// A real Dovecot IMAP server on a loopback port for the IMAP source's tests and bench:imap:
// its own config, passwd file and Maildir root in a temp directory, started in the foreground
// (`dovecot -F -c FILE`) and stopped by its pid. Settings from ../shared/FACTS.md: plaintext
// login is allowed only because it listens on 127.0.0.1 alone.

import { type ChildProcess, spawn } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Debian's binary; a fresh machine gets it from scripts/install-test-services.sh. */
const DOVECOT = '/usr/sbin/dovecot';
/** The uid mail is stored as (static userdb): nobody, so no account needs to exist. */
const MAIL_UID = 65534;

export interface DovecotServer {
  readonly host: '127.0.0.1';
  readonly port: number;
  readonly user: string;
  readonly password: string;
  /** The user's Maildir (folders as Maildir++ `.Name` directories below it). */
  readonly maildir: string;
  /**
   * Writes messages straight into a folder's Maildir new/ (as a delivery agent would), much
   * faster than APPENDs: 20,000 messages in a second or two. Dovecot indexes them on access.
   */
  deliver(folder: string, messages: Iterable<string | Buffer>): number;
  /** Kills the processes serving logged-in connections: each client sees its connection cut. */
  dropConnections(): number;
  /** Kills the server (SIGKILL when `hard`): connections drop as in a crash. */
  stop(hard?: boolean): Promise<void>;
  /** Starts it again on the same port and directories after stop(). */
  restart(): Promise<void>;
  /** Stops it and removes its directory. */
  close(): Promise<void>;
}

export interface DovecotOptions {
  readonly user?: string;
  readonly password?: string;
  /**
   * Also accept OAuth2 tokens (XOAUTH2, OAUTHBEARER), checked by POSTing them to this RFC 7662
   * introspection URL, which answers `{"active": true, "username": …}` for a good one.
   */
  readonly oauth2Introspection?: string;
}

/** A port the kernel says is free now (the server binds it a moment later). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

function oauth2Config(root: string, introspection: string | undefined): string {
  if (introspection === undefined) return '';
  writeFileSync(
    join(root, 'oauth2.conf.ext'),
    `introspection_mode = post\nintrospection_url = ${introspection}\nusername_attribute = username\nactive_attribute = active\nactive_value = true\n`,
  );
  return `auth_mechanisms = $auth_mechanisms xoauth2 oauthbearer
passdb {
  driver = oauth2
  mechanisms = xoauth2 oauthbearer
  args = ${root}/oauth2.conf.ext
}
`;
}

function config(root: string, port: number, introspection?: string): string {
  return `
base_dir = ${root}/run
state_dir = ${root}/state
log_path = ${root}/dovecot.log
info_log_path = ${root}/dovecot.log
listen = 127.0.0.1
protocols = imap
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
default_login_user = dovenull
default_internal_user = dovecot
mail_location = maildir:~/Maildir
mail_uid = ${MAIL_UID}
mail_gid = ${MAIL_UID}
first_valid_uid = ${MAIL_UID}
last_valid_uid = ${MAIL_UID}
passdb {
  driver = passwd-file
  args = scheme=PLAIN ${root}/passwd
}
${oauth2Config(root, introspection)}
userdb {
  driver = static
  args = uid=${MAIL_UID} gid=${MAIL_UID} home=${root}/home/%u
}
namespace inbox {
  inbox = yes
  separator = /
  mailbox Sent {
    special_use = \\Sent
    auto = subscribe
  }
  mailbox Trash {
    special_use = \\Trash
    auto = subscribe
  }
  mailbox Archive {
    special_use = \\Archive
    auto = subscribe
  }
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
service anvil {
  chroot =
}
service imap-login {
  chroot =
}
`;
}

/** Resolves once something accepts connections on the port, or rejects after `ms`. */
async function waitForPort(port: number, ms: number, log: string): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = new Socket();
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
      socket.connect(port, '127.0.0.1');
    });
    if (open) return;
    if (Date.now() > deadline) {
      let tail = '';
      try {
        tail = readFileSync(log, 'utf8').slice(-2000);
      } catch {}
      throw new Error(`dovecot did not listen on 127.0.0.1:${port} within ${ms} ms\n${tail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export async function startDovecot(options: DovecotOptions = {}): Promise<DovecotServer> {
  const user = options.user ?? 'alice';
  const password = options.password ?? 'secret-pw';
  const root = mkdtempSync(join(tmpdir(), 'mailsift-dovecot-'));
  // The mail processes run as nobody and the login processes as dovenull: they must reach
  // their directories below this one.
  chmodSync(root, 0o755);
  for (const dir of ['run', 'state']) mkdirSync(join(root, dir));
  const home = join(root, 'home', user);
  mkdirSync(home, { recursive: true });
  chmodSync(join(root, 'home'), 0o755);
  chmodSync(home, 0o777);
  writeFileSync(join(root, 'passwd'), `${user}:${password}:${MAIL_UID}:${MAIL_UID}::${home}::\n`);
  const port = await freePort();
  const file = join(root, 'dovecot.conf');
  writeFileSync(file, config(root, port, options.oauth2Introspection));
  const log = join(root, 'dovecot.log');
  let child: ChildProcess | null = null;

  const start = async (): Promise<void> => {
    const proc = spawn(DOVECOT, ['-F', '-c', file], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    proc.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<never>((_, reject) =>
      proc.once('exit', (code) => reject(new Error(`dovecot exited (${code}): ${stderr}`))),
    );
    exited.catch(() => {});
    child = proc;
    await Promise.race([waitForPort(port, 10_000, log), exited]);
  };
  const stop = async (hard = false): Promise<void> => {
    const proc = child;
    child = null;
    if (!proc || proc.exitCode !== null) return;
    const gone = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    // A killed master leaves its imap processes serving their clients until these go away:
    // a crash kills them too, or it would not look like one.
    const children = hard && proc.pid ? childrenOf(proc.pid) : [];
    proc.kill(hard ? 'SIGKILL' : 'SIGTERM');
    for (const pid of children) killQuietly(pid);
    await gone;
  };
  let delivered = 0;
  const deliver = (folder: string, messages: Iterable<string | Buffer>): number => {
    const base = join(home, 'Maildir');
    const dir = folder === 'INBOX' ? base : join(base, `.${folder.replaceAll('/', '.')}`);
    for (const part of ['', 'cur', 'new', 'tmp']) {
      mkdirSync(join(dir, part), { recursive: true });
      chownSync(join(dir, part), MAIL_UID, MAIL_UID);
    }
    chownSync(base, MAIL_UID, MAIL_UID);
    let count = 0;
    for (const message of messages) {
      const file = join(dir, 'new', `${Date.now()}.M${++delivered}P${process.pid}.mailsift-test`);
      writeFileSync(file, message);
      chownSync(file, MAIL_UID, MAIL_UID);
      count++;
    }
    return count;
  };
  const dropConnections = (): number => {
    const imap = child?.pid ? childrenOf(child.pid).filter((pid) => commandOf(pid) === 'imap') : [];
    for (const pid of imap) killQuietly(pid);
    return imap.length;
  };
  await start();
  return {
    host: '127.0.0.1',
    port,
    user,
    password,
    maildir: join(home, 'Maildir'),
    stop,
    deliver,
    dropConnections,
    restart: start,
    async close() {
      await stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Pids of the processes `pid` started (Dovecot's imap, imap-login, auth, ...), from /proc. */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // Field 4 of /proc/PID/stat is the parent pid; the command name before it may hold spaces.
      const stat = readFileSync(`/proc/${name}/stat`, 'latin1');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === pid) children.push(Number(name));
    } catch {}
  }
  return children;
}

/** The command name of a process (`imap`, `imap-login`, ...). */
function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'latin1').trim();
  } catch {
    return '';
  }
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {}
}
