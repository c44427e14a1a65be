// Schema migrations of the archive database, applied in order and recorded in
// PRAGMA user_version. A migration is never edited once released: add a new one.

export const MIGRATIONS: readonly string[] = [
  // 1: the archive — inboxes, sources, raw bytes, messages, locations, threads, failures.
  `
  CREATE TABLE inboxes (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL
  );

  CREATE TABLE sources (
    id INTEGER PRIMARY KEY,
    inbox_id INTEGER NOT NULL REFERENCES inboxes(id),
    kind TEXT NOT NULL,
    path TEXT NOT NULL,
    last_run_started_at INTEGER,
    last_run_completed_at INTEGER,
    last_seen_count INTEGER,
    UNIQUE (inbox_id, path)
  );

  -- The original RFC 5322 bytes, deflated; shared by every copy with identical bytes.
  CREATE TABLE raw_messages (
    id INTEGER PRIMARY KEY,
    sha256 TEXT NOT NULL UNIQUE,
    size INTEGER NOT NULL,
    deflated BLOB NOT NULL
  );

  CREATE TABLE messages (
    id INTEGER PRIMARY KEY,
    inbox_id INTEGER NOT NULL REFERENCES inboxes(id),
    -- Addressable id: the Message-ID, a synthetic id for messages without one, or
    -- '<id>#variant-<hash>' for a second copy of a Message-ID with different content.
    message_id TEXT NOT NULL,
    header_message_id TEXT,
    variant_of INTEGER REFERENCES messages(id) ON DELETE SET NULL,
    content_hash TEXT NOT NULL,
    thread_id TEXT NOT NULL,
    date INTEGER NOT NULL,
    date_source TEXT NOT NULL,
    from_name TEXT NOT NULL,
    from_address TEXT NOT NULL,
    to_json TEXT NOT NULL,
    cc_json TEXT NOT NULL,
    bcc_json TEXT NOT NULL,
    reply_to_json TEXT NOT NULL,
    subject TEXT NOT NULL,
    in_reply_to TEXT,
    references_json TEXT NOT NULL,
    auth_json TEXT NOT NULL,
    list_id TEXT,
    header_labels_json TEXT NOT NULL,
    warnings_json TEXT NOT NULL,
    attachment_count INTEGER NOT NULL,
    -- The cleaned body (CleanedBody as JSON), deflated.
    body BLOB NOT NULL,
    raw_id INTEGER NOT NULL REFERENCES raw_messages(id),
    ingested_at INTEGER NOT NULL,
    UNIQUE (inbox_id, message_id)
  );
  CREATE INDEX messages_inbox_date ON messages (inbox_id, date, id);
  CREATE INDEX messages_thread ON messages (inbox_id, thread_id, date);
  CREATE INDEX messages_content ON messages (inbox_id, content_hash);
  CREATE INDEX messages_raw ON messages (raw_id);

  CREATE TABLE attachments (
    message_rowid INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    ordinal INTEGER NOT NULL,
    filename TEXT,
    content_type TEXT NOT NULL,
    size INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    content_id TEXT,
    inline INTEGER NOT NULL,
    PRIMARY KEY (message_rowid, ordinal)
  ) WITHOUT ROWID;

  -- Where a message was seen: one row per (source, stable key).
  CREATE TABLE locations (
    id INTEGER PRIMARY KEY,
    source_id INTEGER NOT NULL REFERENCES sources(id),
    key TEXT NOT NULL,
    folder TEXT NOT NULL,
    labels_json TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    message_rowid INTEGER NOT NULL REFERENCES messages(id),
    seen_run INTEGER NOT NULL,
    UNIQUE (source_id, key)
  );
  CREATE INDEX locations_message ON locations (message_rowid);

  -- Union of header labels, location labels and folder-derived labels; kept in step by the store.
  CREATE TABLE message_labels (
    message_rowid INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    label TEXT NOT NULL,
    PRIMARY KEY (message_rowid, label)
  ) WITHOUT ROWID;
  CREATE INDEX message_labels_label ON message_labels (label, message_rowid);

  CREATE TABLE failures (
    id INTEGER PRIMARY KEY,
    source_id INTEGER NOT NULL REFERENCES sources(id),
    key TEXT NOT NULL,
    folder TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    reason TEXT NOT NULL,
    at INTEGER NOT NULL,
    seen_run INTEGER NOT NULL,
    UNIQUE (source_id, key)
  );

  -- JWZ containers: one per Message-ID seen in a message or in a reference list.
  -- present = 0 is a placeholder for a parent that has not arrived (or was deleted).
  CREATE TABLE thread_nodes (
    inbox_id INTEGER NOT NULL,
    message_id TEXT NOT NULL,
    parent_id TEXT,
    thread_id TEXT NOT NULL,
    present INTEGER NOT NULL,
    PRIMARY KEY (inbox_id, message_id)
  ) WITHOUT ROWID;
  CREATE INDEX thread_nodes_thread ON thread_nodes (inbox_id, thread_id);

  -- Provider thread keys (Gmail X-GM-THRID, Outlook Thread-Index) mapped to our thread.
  CREATE TABLE thread_keys (
    inbox_id INTEGER NOT NULL,
    key TEXT NOT NULL,
    thread_id TEXT NOT NULL,
    PRIMARY KEY (inbox_id, key)
  ) WITHOUT ROWID;

  CREATE TABLE threads (
    inbox_id INTEGER NOT NULL,
    id TEXT NOT NULL,
    message_count INTEGER NOT NULL,
    PRIMARY KEY (inbox_id, id)
  ) WITHOUT ROWID;

  -- A thread id absorbed by a merge keeps resolving to the surviving thread.
  CREATE TABLE thread_aliases (
    inbox_id INTEGER NOT NULL,
    old_id TEXT NOT NULL,
    new_id TEXT NOT NULL,
    PRIMARY KEY (inbox_id, old_id)
  ) WITHOUT ROWID;
  `,
  // 2: text extracted from attachments, once per distinct content (sha256).
  `
  CREATE TABLE attachment_texts (
    sha256 TEXT PRIMARY KEY,
    status TEXT NOT NULL,
    reason TEXT,
    detected_type TEXT NOT NULL,
    format TEXT NOT NULL,
    language TEXT,
    truncated INTEGER NOT NULL,
    -- Extracted text, deflated.
    text BLOB NOT NULL,
    -- Headers of a nested message/rfc822 (JSON), searchable as attachment metadata.
    message_json TEXT,
    extracted_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX attachments_sha ON attachments (sha256);
  CREATE INDEX attachment_texts_format ON attachment_texts (format);
  `,
  // 3: distinct senders with their message counts, derived from messages by triggers in the
  // same transactions. A list's \`from\` filter matches these few thousand rows, then walks only
  // the matching senders' messages (messages_sender) instead of collecting every message of a
  // common sender from the keyword index. AUTOINCREMENT: an id never names another sender.
  `
  CREATE INDEX messages_sender ON messages (inbox_id, from_address, from_name, date);
  CREATE TABLE senders (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    inbox_id INTEGER NOT NULL,
    address TEXT NOT NULL,
    name TEXT NOT NULL,
    messages INTEGER NOT NULL,
    UNIQUE (inbox_id, address, name)
  );
  INSERT INTO senders (inbox_id, address, name, messages)
    SELECT inbox_id, from_address, from_name, count(*) FROM messages
    GROUP BY inbox_id, from_address, from_name;
  CREATE TRIGGER senders_insert AFTER INSERT ON messages BEGIN
    INSERT INTO senders (inbox_id, address, name, messages)
    VALUES (new.inbox_id, new.from_address, new.from_name, 1)
    ON CONFLICT (inbox_id, address, name) DO UPDATE SET messages = messages + 1;
  END;
  CREATE TRIGGER senders_delete AFTER DELETE ON messages BEGIN
    UPDATE senders SET messages = messages - 1
    WHERE inbox_id = old.inbox_id AND address = old.from_address AND name = old.from_name;
    DELETE FROM senders
    WHERE inbox_id = old.inbox_id AND address = old.from_address AND name = old.from_name AND messages = 0;
  END;
  `,
  // 4: the cleaner rules (CLEANER_VERSION) the oldest stored messages of an inbox were cleaned
  // with: status asks for \`mailsift reclean\` when this build's rules are newer. An inbox made
  // before this was recorded was cleaned with version 1.
  `
  ALTER TABLE inboxes ADD COLUMN cleaner INTEGER NOT NULL DEFAULT 1;
  `,
  // 5: a thread merge finds the absorbed thread's provider keys and aliases by its id
  // (thread-graph.ts, MERGE_REWRITES) instead of reading every row. messages_content was
  // never read (duplicates are found by Message-ID, copies by raw hash) and was one of the
  // random-keyed b-trees whose leaves every ingest batch rewrites: 5k of the ~40k such
  // leaves at 1M messages.
  `
  CREATE INDEX thread_keys_thread ON thread_keys (inbox_id, thread_id);
  CREATE INDEX thread_aliases_new ON thread_aliases (inbox_id, new_id);
  DROP INDEX messages_content;
  `,
  // 6: the store counts a new message's sender itself (MessageStore.insert). A table with a
  // trigger makes SQLite journal, per inserted row, every existing page the statement
  // changes, 16 KB each: the messages insert cost 47-58 us with senders_insert and 14-23 us
  // without it, the sender's count included. Deletions are rare and keep their trigger.
  `
  DROP TRIGGER IF EXISTS senders_insert;
  `,
  // 7: thread nodes in a rowid table. Keyed by (inbox, Message-ID) WITHOUT ROWID, each node's
  // whole row (~150 bytes: three ids) sat in a random-keyed b-tree and its thread index
  // carried the Message-ID again; an ingest batch rewrites nearly every leaf of such trees.
  // Rows now append in arrival order, the lookup index holds the Message-ID and a rowid, the
  // thread index the thread id and a rowid. 20k messages into a 1M archive, pages in the
  // WAL: thread nodes 12.1k -> 6.9k, all 47.7k -> 41.8k. The migration takes ~5 s at 1M.
  `
  CREATE TABLE thread_nodes_by_rowid (
    id INTEGER PRIMARY KEY,
    inbox_id INTEGER NOT NULL,
    message_id TEXT NOT NULL,
    parent_id TEXT,
    thread_id TEXT NOT NULL,
    present INTEGER NOT NULL
  );
  INSERT INTO thread_nodes_by_rowid (inbox_id, message_id, parent_id, thread_id, present)
    SELECT inbox_id, message_id, parent_id, thread_id, present FROM thread_nodes;
  DROP TABLE thread_nodes;
  ALTER TABLE thread_nodes_by_rowid RENAME TO thread_nodes;
  CREATE UNIQUE INDEX thread_nodes_message ON thread_nodes (inbox_id, message_id);
  CREATE INDEX thread_nodes_thread ON thread_nodes (inbox_id, thread_id);
  `,
  // 8: what a source's last complete scan passed over as not mail (index and state files,
  // editor backups, ...), per kind with its reason: JSON of SkippedFiles[], for status.
  `
  ALTER TABLE sources ADD COLUMN last_skipped TEXT;
  `,
  // 9: sources on a server (IMAP). Per folder what the last complete sync saw (written in the
  // transaction that ends it), how the source logs in (never the secret), and the last error.
  `
  CREATE TABLE source_folders (
    source_id INTEGER NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
    folder TEXT NOT NULL,
    uid_validity TEXT NOT NULL,
    uid_next INTEGER NOT NULL,
    highest_modseq TEXT,
    messages INTEGER NOT NULL,
    synced_at INTEGER NOT NULL,
    PRIMARY KEY (source_id, folder)
  );
  ALTER TABLE sources ADD COLUMN credential TEXT;
  ALTER TABLE sources ADD COLUMN last_error TEXT;
  ALTER TABLE sources ADD COLUMN last_error_at INTEGER;
  `,
  // 10: the variants of a message by an index. Deleting a message makes SQLite set the
  // variant_of of its variants to NULL (the foreign key's ON DELETE SET NULL), which without an
  // index scanned every message: 100 messages expunged from a 20,000-message IMAP folder took
  // 3-6 s to delete, 0.3 s with it. Partial: a variant is rare.
  `
  CREATE INDEX messages_variant_of ON messages (variant_of) WHERE variant_of IS NOT NULL;
  `,
];
