// Opens an archive database: one SQLite file per archive, WAL mode, migrated schema.
// Indexes built on top (keyword, vectors, chunks) register hooks here so that their
// writes and deletions share the store's transactions.

import { rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { MailsiftError } from '../core/errors.js';
import type { PreparedMessage } from './records.js';
import { MIGRATIONS } from './schema.js';

export type Db = Database.Database;

/** A message the store has just inserted from what ingest prepared. */
export interface InsertedMessage {
  readonly prepared: PreparedMessage;
  readonly inboxId: number;
  readonly threadId: string;
}

/**
 * An index kept in step with the message store. Both callbacks run inside the store's
 * transaction: when the transaction rolls back, the index change rolls back with it.
 */
export interface IndexHook {
  readonly name: string;
  /**
   * The hook reads the keyword document ingest's prepare workers analyse off the ingest
   * thread (`prepared.precomputed`). Analysis is a third of a message's preparation, so
   * ingest asks for it only when a registered hook uses it.
   */
  readonly usesKeywordDocument?: boolean;
  /**
   * Called after a message row (and its attachments) is inserted, and again whenever what
   * is indexed about it changes (re-extracted attachment text): it must replace, not add.
   * At ingest it also gets the message as inserted: the prepared message, with whatever the
   * hook precomputed off the main thread under its name in `prepared.precomputed`, and the
   * row's inbox and thread, so the hook need not read them back.
   */
  onInsert?(db: Db, messageRowid: number, inserted?: InsertedMessage): void;
  /** Called before a message row is deleted, while it is still readable. */
  onDelete?(db: Db, messageRowid: number): void;
  /**
   * onInsert may defer its writes to the end of the transaction: whoever calls onInsert
   * calls flush on every hook before committing, and discard before a rollback.
   */
  flush?(db: Db): void;
  discard?(db: Db): void;
  /**
   * Called in a transaction of its own after a bulk re-index (an extraction drain or a
   * re-extraction): the hook may rewrite what re-indexing many messages left behind.
   */
  compact?(db: Db): void;
}

export interface Archive {
  readonly db: Db;
  readonly path: string;
  readonly hooks: IndexHook[];
  close(): void;
}

export function openArchive(path: string, options: { readonly?: boolean } = {}): Archive {
  let db: Db;
  try {
    db = new Database(path, {
      readonly: options.readonly ?? false,
      fileMustExist: options.readonly ?? false,
    });
  } catch (error) {
    throw new MailsiftError('bad_database', `cannot open database ${path}: ${(error as Error).message}`, {
      param: 'db',
      cause: error,
    });
  }
  try {
    configure(db, options.readonly ?? false);
    attachScratch(db, path);
    if (!options.readonly) migrate(db, path);
  } catch (error) {
    db.close();
    if (error instanceof MailsiftError) throw error;
    throw new MailsiftError(
      'bad_database',
      `${path} is not a usable mailsift archive: ${(error as Error).message}`,
      {
        param: 'db',
        cause: error,
      },
    );
  }
  return { db, path, hooks: [], close: () => db.close() };
}

/**
 * Page size of a new archive (an existing one keeps its own). The keyword postings are
 * blobs of up to megabytes, read through chains of overflow pages: 16 KB pages cut the
 * CPU of a cold search mix by ~10% on 100k messages against 4 KB, with the same ingest
 * speed and a slightly smaller file.
 */
export const PAGE_SIZE = 16_384;

function configure(db: Db, readonly: boolean): void {
  if (!readonly) {
    // Takes effect only on an empty file, before WAL mode fixes the page size.
    db.pragma(`page_size = ${PAGE_SIZE}`);
    db.pragma('journal_mode = WAL');
  }
  // NORMAL in WAL mode is durable across application crashes (SIGKILL); only an OS
  // crash can lose the last transactions, never corrupt the file.
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // Page cache and memory map are both bounded so an ingest of any size stays inside its
  // memory budget: mapped pages count towards RSS as the file is read. 16 MB of page cache
  // cost no throughput against 32 MB on a 20k ingest and took peak RSS from 405 to 390 MB;
  // the operating system's file cache still holds the hot pages. 256 MB while ingesting into
  // a 1.1-1.2M archive (80k messages, alternated runs): +9% in one pair, nothing measurable
  // beside the merges' swings in another, for +250 MB peak RSS: not taken.
  db.pragma('cache_size = -16384');
  db.pragma('mmap_size = 67108864');
  db.pragma('temp_store = MEMORY');
}

/** Schema name of the archive's scratch database (see attachScratch). */
export const SCRATCH = 'scratch';

/**
 * Attaches the archive's scratch database, `<archive>-scratch`, as schema `scratch`: state
 * the read path writes and may lose (frozen search orders, ranked heads shared by server
 * workers). Kept out of the archive because a commit to the archive makes every other
 * connection (each server worker) drop its page cache. Being disposable, a scratch file
 * that is not a database is replaced rather than failing the archive; an archive opened
 * read-only whose scratch file cannot be opened gets one in memory.
 */
function attachScratch(db: Db, path: string): void {
  if (db.memory) {
    db.prepare(`ATTACH DATABASE ':memory:' AS ${SCRATCH}`).run();
    return;
  }
  const file = `${path}-scratch`;
  try {
    openScratch(db, file);
  } catch (error) {
    const attached = db.pragma('database_list') as Array<{ name: string }>;
    if (attached.some((d) => d.name === SCRATCH)) db.prepare(`DETACH DATABASE ${SCRATCH}`).run();
    if (db.readonly) {
      db.prepare(`ATTACH DATABASE ':memory:' AS ${SCRATCH}`).run();
      return;
    }
    if (!isNotADatabase(error)) throw error;
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
    openScratch(db, file);
  }
}

function openScratch(db: Db, file: string): void {
  db.prepare(`ATTACH DATABASE ? AS ${SCRATCH}`).run(file);
  // Reads the file's header: a file that is not a database fails here, not in a search.
  db.prepare(`SELECT count(*) FROM ${SCRATCH}.sqlite_schema`).get();
  if (db.readonly) return;
  db.pragma(`${SCRATCH}.journal_mode = WAL`);
  db.pragma(`${SCRATCH}.synchronous = NORMAL`);
}

function isNotADatabase(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT';
}

function migrate(db: Db, path: string): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new MailsiftError(
      'bad_database',
      `${path} has schema version ${current}, newer than this mailsift (${MIGRATIONS.length}); upgrade mailsift`,
      { param: 'db' },
    );
  }
  if (current === 0) {
    const tables = db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table'").get() as {
      n: number;
    };
    if (tables.n > 0) {
      throw new MailsiftError('bad_database', `${path} is an SQLite database but not a mailsift archive`, {
        param: 'db',
      });
    }
  }
  for (let version = current; version < MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version] as string);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
}

const statementCache = new WeakMap<Db, Map<string, Database.Statement>>();

/** A prepared statement for `sql`, compiled once per connection. */
export function sql(db: Db, text: string): Database.Statement {
  let cache = statementCache.get(db);
  if (!cache) {
    cache = new Map();
    statementCache.set(db, cache);
  }
  let statement = cache.get(text);
  if (!statement) {
    statement = db.prepare(text);
    cache.set(text, statement);
  }
  return statement;
}
