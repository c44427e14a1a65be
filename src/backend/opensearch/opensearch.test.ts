// The OpenSearch backend against a real 3-node cluster started here (scripts/cluster.mjs, one
// JVM per node on a free port range, stopped in afterAll): the bundled sample copied from its
// SQLite archive, the same messages for the same queries, stable pages through an order
// frozen in the cluster, and a killed node: index_unavailable without replicas, complete answers with one.

import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ClusterState,
  freeBasePort,
  nodeUrls,
  startCluster,
  stopCluster,
} from '../../../scripts/cluster.mjs';
import { describeSearchContract } from '../../../test/contract/search-contract.js';
import { CLI, runCli } from '../../../test/e2e/cli.js';
import { tempDir } from '../../../test/temp.js';
import { createKey } from '../../auth/index.js';
import { isMailsiftError } from '../../core/errors.js';
import { Mailsift } from '../../engine.js';
import { openSampleArchive, type SampleArchive } from '../../eval/sample-archive.js';
import { indexSecret } from '../../index/index.js';
import type { MessageHit, MessageSearchResult, ThreadHit } from '../../search/index.js';
import { SNAPSHOT_PAGES } from '../../search/snapshot.js';
import { MessageStore, outboxDepth } from '../../store/index.js';
import { ClusterMailApi } from '../../surfaces/http/cluster-api.js';
import { type RunningServer, startServer } from '../../surfaces/http/index.js';
import { handleMcpHttp } from '../../surfaces/mcp/index.js';
import { checkCluster } from './check.js';
import { assertComplete, OpenSearchClient } from './client.js';
import { documentId, type MessageDocument } from './mapping.js';
import { drainOutbox } from './outbox.js';
import * as reader from './reader.js';
import { listMessages, type OpenSearchTarget, searchMessages, searchThreads } from './search.js';
import { documentsOf, syncArchive, writeDocuments } from './writer.js';

let cluster: ClusterState | undefined;
let sample: SampleArchive;
let client: OpenSearchClient;
/** 3 shards, 1 replica: survives a node. */
let replicated: OpenSearchTarget;
/** 3 shards, no replica: a killed node takes a shard with it. */
let single: OpenSearchTarget;

/**
 * The same API three ways: over the sample archive, and over each index from a host whose
 * archive holds API keys only. Each with a key for inbox demo (`key`); `otherKey` sees
 * another inbox only.
 */
interface Served {
  readonly server: RunningServer;
  readonly key: string;
  readonly otherKey: string;
}
let overArchive: Served;
let overReplicated: Served;
let overSingle: Served;
/** The archive of the cluster servers' host: keys, no mail. */
let keysPath: string;

async function serveWith(engine: Mailsift, target: OpenSearchTarget | null): Promise<Served> {
  const db = engine.archive.db;
  // Inbox other holds no mail anywhere: a tenant whose key must not see demo.
  for (const inbox of ['demo', 'other']) new MessageStore(engine.archive).inbox(inbox);
  const key = createKey(db, { inboxes: ['demo'] }).key;
  const otherKey = createKey(db, { inboxes: ['other'] }).key;
  const secret = indexSecret(db);
  const server = await startServer(engine, {
    host: '127.0.0.1',
    port: 0,
    auth: true,
    mcp: handleMcpHttp,
    ...(target ? { api: (principal) => new ClusterMailApi(target, principal, secret) } : {}),
  });
  return { server, key, otherKey };
}

async function get(
  served: Served,
  path: string,
  key = served.key,
): Promise<{ status: number; body: Buffer }> {
  const response = await fetch(`${served.server.url}${path}`, {
    headers: { authorization: `Bearer ${key}` },
  });
  return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
}

/** The parts of API answers these tests read. */
interface ApiBody {
  readonly messages: MessageHit[];
  readonly nextPageToken: string | null;
  readonly error: { readonly code: string };
}

async function getJson(
  served: Served,
  path: string,
  key = served.key,
): Promise<{ status: number; json: ApiBody }> {
  const { status, body } = await get(served, path, key);
  return { status, json: JSON.parse(body.toString('utf8')) };
}

beforeAll(async () => {
  const basePort = await freeBasePort(3);
  [cluster, sample] = await Promise.all([startCluster({ nodes: 3, basePort }), openSampleArchive()]);
  client = new OpenSearchClient({ nodes: nodeUrls(cluster), timeoutMs: 20_000 });
  replicated = { client, index: 'mail-r1' };
  single = { client, index: 'mail-r0' };
  const db = sample.engine.archive.db;
  await syncArchive(db, replicated, { replicas: 1 });
  await syncArchive(db, single, { replicas: 0 });
  keysPath = join(tempDir('mailsift-keys-'), 'keys.db');
  [overArchive, overReplicated, overSingle] = await Promise.all([
    serveWith(Mailsift.open(join(sample.root, 'archive.db')), null),
    serveWith(Mailsift.open(keysPath), replicated),
    serveWith(Mailsift.open(join(tempDir('mailsift-keys-'), 'keys.db')), single),
  ]);
}, 240_000);

afterAll(async () => {
  await Promise.all([overArchive, overReplicated, overSingle].map((s) => s?.server.close()));
  if (cluster) await stopCluster(cluster.basePort);
  sample?.engine.close();
});

/** Every message a query matches exactly, paging through the SQLite backend. */
function sqliteMatches(q: string): string[] {
  const ids: string[] = [];
  let pageToken: string | undefined;
  do {
    const page: MessageSearchResult = sample.engine.searchMessages({
      q,
      limit: 100,
      explain: true,
      pageToken,
    });
    // OpenSearch has no typo-tolerant fill: compare the exact phase.
    ids.push(...page.messages.filter((m) => m.explain?.match === 'exact').map((m) => m.messageId));
    pageToken = page.nextPageToken ?? undefined;
  } while (pageToken);
  return ids;
}

async function openSearchPages(
  target: OpenSearchTarget,
  params: Record<string, unknown>,
): Promise<string[][]> {
  const pages: string[][] = [];
  let pageToken = params.pageToken as string | undefined;
  do {
    const page = await searchMessages(target, { ...params, pageToken });
    pages.push(page.messages.map((m) => m.messageId));
    pageToken = page.nextPageToken ?? undefined;
  } while (pageToken);
  return pages;
}

// The search contract every backend keeps (test/contract/search-contract.ts), on a copy of its
// archive; before the tests below, whose last one kills a node.
describeSearchContract('opensearch', async (archive) => {
  const target = { client, index: 'contract' };
  await syncArchive(archive.db, target, { replicas: 1 });
  return {
    searchMessages: (params) => searchMessages(target, params),
    searchThreads: (params) => searchThreads(target, params),
    listMessages: (params) => listMessages(target, params),
  };
});

/** A message file as a Maildir holds it. */
function mailFile(id: string, subject: string, body: string, parent?: string): string {
  const reply = parent ? `In-Reply-To: <${parent}>\nReferences: <${parent}>\n` : '';
  return `From: Alice <alice@feed.test>\nTo: Bob <bob@feed.test>\nSubject: ${subject}\nDate: Mon, 1 Jan 2024 10:00:00 +0000\nMessage-ID: <${id}>\n${reply}\n${body}\n`;
}

// Ingest into an archive that feeds the cluster (its outbox, store/cluster-feed.ts): each
// change reaches the cluster without a reindex, and a drain cut short resends what waited.
describe('ingest feeding the cluster', () => {
  let engine: Mailsift;
  let maildir: string;
  let feed: OpenSearchTarget;
  const put = (name: string, text: string) => writeFileSync(join(maildir, 'cur', name), text);
  /** The cluster's document of a message, or undefined when it has none. */
  /** Makes what the cluster took searchable (its refresh interval is a second). */
  const refresh = () => client.request('POST', `/${feed.index}/_refresh`);
  const clusterDocument = async (messageId: string): Promise<MessageDocument | undefined> => {
    await refresh();
    const found = await client.request<{ hits: { hits: Array<{ _source: MessageDocument }> } }>(
      'POST',
      `/${feed.index}/_search`,
      { query: { ids: { values: [documentId('feed', messageId)] } } },
    );
    return found.hits.hits[0]?._source;
  };
  const ingest = () => engine.ingest([maildir], { inbox: 'feed' });

  beforeAll(async () => {
    const root = tempDir('mailsift-feed-');
    maildir = join(root, 'mail');
    for (const sub of ['cur', 'new', 'tmp']) mkdirSync(join(maildir, sub), { recursive: true });
    put('1704103200.M1P1.host:2,S', mailFile('root@feed.test', 'Quarterly plan', 'the plan'));
    // A reply to a message not received yet: a thread of its own until its parent arrives.
    put(
      '1704103202.M3P3.host:2,S',
      mailFile('late@feed.test', 'Re: Quarterly plan', 'agreed', 'middle@feed.test'),
    );
    // Another, whose parent will arrive replying to a message never received: no merge.
    put('1704103206.M7P7.host:2,S', mailFile('child@feed.test', 'Re: Venue', 'fine', 'parent@feed.test'));
    engine = Mailsift.open(join(root, 'archive.db'));
    feed = { client, index: 'feed' };
    expect((await ingest()).cluster).toBeUndefined();
    await syncArchive(engine.archive.db, feed, { replicas: 1 });
  });

  afterAll(() => engine?.close());

  it('a new message, a flag change, a thread merge and a deletion each reach the cluster with the ingest', async () => {
    put('1704103203.M4P4.host:2,', mailFile('new@feed.test', 'Budget', 'zanzibar figures'));
    expect((await ingest()).cluster).toEqual({ sent: 1, waiting: 0 });
    await refresh();
    const found = await searchMessages(feed, { q: 'zanzibar' });
    expect(found.messages.map((m) => m.messageId)).toEqual(['new@feed.test']);

    // Flagged in the mail client: the file's flags change, and with them its labels.
    renameSync(
      join(maildir, 'cur', '1704103203.M4P4.host:2,'),
      join(maildir, 'cur', '1704103203.M4P4.host:2,FS'),
    );
    expect((await ingest()).cluster).toEqual({ sent: 1, waiting: 0 });
    const flagged = engine.getMessage('new@feed.test').labels;
    expect(flagged).toContain('flagged');
    expect((await clusterDocument('new@feed.test'))?.labels).toEqual(flagged);

    // The missing parent arrives: the root's thread and the late reply's merge into one.
    const threadsBefore = new Set(
      await Promise.all(
        ['root@feed.test', 'late@feed.test'].map(async (id) => (await clusterDocument(id))?.threadId),
      ),
    );
    expect(threadsBefore.size).toBe(2);
    put(
      '1704103201.M2P2.host:2,S',
      mailFile('middle@feed.test', 'Re: Quarterly plan', 'a reply', 'root@feed.test'),
    );
    put('1704103207.M8P8.host:2,S', mailFile('parent@feed.test', 'Re: Venue', 'here', 'origin@feed.test'));
    expect((await ingest()).cluster?.waiting).toBe(0);
    // child -> parent -> origin (a placeholder): the child's path grew, its thread is the same.
    const [child] = documentsOf(engine.archive.db, [engine.getMessage('child@feed.test')]);
    expect(child?.threadPath.map((n) => n.messageId)).toEqual([
      'child@feed.test',
      'parent@feed.test',
      'origin@feed.test',
    ]);
    expect((await clusterDocument('child@feed.test'))?.threadPath).toEqual(child?.threadPath);
    const thread = engine.getMessage('late@feed.test').threadId;
    for (const id of ['root@feed.test', 'middle@feed.test', 'late@feed.test']) {
      const [stored] = documentsOf(engine.archive.db, [engine.getMessage(id)]);
      expect(stored?.threadId).toBe(thread);
      const document = await clusterDocument(id);
      expect(document?.threadId).toBe(thread);
      // Its path up the tree (late now under middle under root) and the thread's former ids.
      expect(document?.threadPath).toEqual(stored?.threadPath);
      expect(document?.threadAliases).toEqual(stored?.threadAliases);
    }

    // Deleted in the mail client.
    rmSync(join(maildir, 'cur', '1704103203.M4P4.host:2,FS'));
    expect((await ingest()).cluster).toEqual({ sent: 1, waiting: 0 });
    expect(await clusterDocument('new@feed.test')).toBeUndefined();
    await refresh();
    expect(await checkCluster(engine.archive.db, feed)).toMatchObject({ ok: true, archive: 5 });
  });

  it('a cluster that is down leaves the changes queued; a drain cut short after the cluster took them resends them once', async () => {
    put('1704103204.M5P5.host:2,S', mailFile('first@feed.test', 'Minutes', 'quokka notes'));
    put('1704103205.M6P6.host:2,S', mailFile('second@feed.test', 'Minutes', 'quokka actions'));
    const db = engine.archive.db;
    // No node answers (the feed's node is a closed port): the ingest commits locally.
    const nodes = db.prepare('SELECT nodes FROM backend_feed').pluck().get();
    db.prepare('UPDATE backend_feed SET nodes = ?').run(JSON.stringify(['http://127.0.0.1:1']));
    const report = await ingest();
    db.prepare('UPDATE backend_feed SET nodes = ?').run(nodes);
    expect(report.added).toBe(2);
    expect(report.cluster).toMatchObject({ sent: 0, waiting: 2 });
    expect(report.cluster?.error).toMatch(/no OpenSearch node answered/);
    expect(outboxDepth(db)).toBe(2);
    expect(await clusterDocument('first@feed.test')).toBeUndefined();
    // The process dies after the cluster took the batch, before the outbox forgot it.
    const cut = await drainOutbox(db, {
      onAccepted: () => {
        throw new Error('killed');
      },
    });
    expect(cut).toEqual({ sent: 0, waiting: 2, error: 'killed' });
    expect(await clusterDocument('first@feed.test')).toBeDefined();
    // The next run sends them again: the same documents, no duplicates.
    expect(await engine.feedCluster()).toEqual({ sent: 2, waiting: 0 });
    expect(outboxDepth(db)).toBe(0);
    await refresh();
    expect(await checkCluster(db, feed)).toMatchObject({ ok: true, archive: 7, cluster: 7 });
    await refresh();
    expect((await searchMessages(feed, { q: 'quokka' })).messages).toHaveLength(2);
  });

  it('an item the cluster refuses stays queued, named, and nothing after it is sent', async () => {
    // A write-blocked index refuses each item of a bulk request (HTTP 200, errors: true).
    const block = (on: boolean) =>
      client.request('PUT', `/${feed.index}/_settings`, { index: { 'blocks.write': on } });
    put('1704103208.M9P9.host:2,S', mailFile('blocked@feed.test', 'Minutes', 'wombat'));
    await block(true);
    const refused = await ingest().finally(() => block(false));
    expect(refused.cluster).toMatchObject({ sent: 0, waiting: 1 });
    expect(refused.cluster?.error).toMatch(/refused feed <blocked@feed\.test> \(403\)/);
    expect(await clusterDocument('blocked@feed.test')).toBeUndefined();
    expect(await engine.feedCluster()).toEqual({ sent: 1, waiting: 0 });
    await refresh();
    expect(await checkCluster(engine.archive.db, feed)).toMatchObject({ ok: true, archive: 8 });
  });
});

describe('opensearch backend', () => {
  it('copies the archive once: a second sync replaces every document and deletes what the archive lost; check names the differences', async () => {
    const count = async () =>
      (await client.request<{ count: number }>('GET', `/${replicated.index}/_count`)).count;
    const stored = sample.engine.status().messages;
    expect(await count()).toBe(stored);
    // A document the archive does not have (as if its message had been deleted since).
    const [message] = sample.engine.listMessages({ limit: 1 }).messages;
    const [document] = documentsOf(sample.engine.archive.db, [
      sample.engine.getMessage(message?.messageId ?? ''),
    ]);
    const gone = { ...(document as MessageDocument), uid: 'gone' };
    await writeDocuments(client, replicated.index, [gone], { refresh: true });
    expect(await count()).toBe(stored + 1);
    const db = sample.engine.archive.db;
    const before = await checkCluster(db, replicated);
    expect(before).toMatchObject({ ok: false, archive: stored, cluster: stored + 1, missing: { count: 0 } });
    expect(before.extra.count).toBe(1);
    const report = await syncArchive(db, replicated);
    expect(report).toEqual({ indexed: stored, deleted: 1 });
    expect(await count()).toBe(stored);
    expect(await checkCluster(db, replicated)).toMatchObject({ ok: true, cluster: stored });
    // A stored message the cluster lost.
    await client.request(
      'DELETE',
      `/${replicated.index}/_doc/${documentId('demo', message?.messageId ?? '')}?refresh=true`,
    );
    expect(await checkCluster(db, replicated)).toMatchObject({
      ok: false,
      missing: { count: 1, examples: [`demo <${message?.messageId}>`] },
    });
    await syncArchive(db, replicated);
  });

  it.each([
    ['an identifier', 'INV-4471'],
    ['an identifier prefix', 'INV-44'],
    ['an address', 'laura.bianchi@acme-corp.com'],
    ['an address prefix', 'noreply@github'],
    ['a name', 'Klaus'],
    ['two words', 'budget review'],
    ['two words, one a stem', 'delivery schedules'],
  ])('matches what SQLite matches: %s (%s)', async (_kind, q) => {
    const expected = sqliteMatches(q);
    expect(expected.length).toBeGreaterThan(0);
    const pages = await openSearchPages(replicated, { q, limit: 100 });
    // Same message set. Order may differ among near-ties (see the scoring notes in search.ts).
    expect(pages.flat().sort()).toEqual([...expected].sort());
  });

  it('ranks a clear winner first as SQLite does, and highlights with **', async () => {
    const q = 'INV-4471';
    const sqlite = sample.engine.searchMessages({ q, limit: 3 });
    const opensearch = await searchMessages(replicated, { q, limit: 3 });
    expect(opensearch.messages[0]?.messageId).toBe(sqlite.messages[0]?.messageId);
    expect(opensearch.messages[0]?.highlights).toEqual(sqlite.messages[0]?.highlights);
    expect(JSON.stringify(opensearch.messages[0]?.highlights)).toContain('**INV-4471**');
  });

  it('thread mode: the threads SQLite finds, each summarised alike, paged without repeats', async () => {
    const q = 'budget review';
    const expected = new Map<string, ThreadHit>();
    let pageToken: string | undefined;
    do {
      const page = sample.engine.searchThreads({ q, limit: 100, explain: true, pageToken });
      for (const t of page.threads) if (t.explain?.match === 'exact') expected.set(t.threadId, t);
      pageToken = page.nextPageToken ?? undefined;
    } while (pageToken);
    expect(expected.size).toBeGreaterThan(3);
    const found: ThreadHit[] = [];
    pageToken = undefined;
    do {
      const page = await searchThreads(replicated, { q, limit: 2, pageToken });
      found.push(...page.threads);
      pageToken = page.nextPageToken ?? undefined;
    } while (pageToken);
    expect(found.map((t) => t.threadId).sort()).toEqual([...expected.keys()].sort());
    const summary = (t: ThreadHit) => ({
      subject: t.subject,
      senders: [...t.senders].sort(),
      recipients: [...t.recipients].sort(),
      messageCount: t.messageCount,
      lastMessageId: t.lastMessageId,
      timestamp: t.timestamp,
    });
    for (const thread of found)
      expect(summary(thread)).toEqual(summary(expected.get(thread.threadId) as ThreadHit));
  });

  it('pages through a frozen order: no duplicates, no gaps, unmoved by writes between pages', async () => {
    const q = 'invoice';
    const whole = (await openSearchPages(replicated, { q, limit: 100 })).flat();
    expect(whole.length).toBeGreaterThan(100);
    // Pages of 14 freeze ten of them, the whole ranking; pages of 4 freeze 40 entries, and
    // the order is extended from the live ranking past them.
    const deep = Math.ceil(whole.length / SNAPSHOT_PAGES);
    const firstDeep = await searchMessages(replicated, { q, limit: deep });
    const firstShallow = await searchMessages(replicated, { q, limit: 4 });
    // A new, better match arrives between pages: it belongs to a later search, not this one.
    const top = sample.engine.getMessage(whole[0] ?? '');
    const [document] = documentsOf(sample.engine.archive.db, [top]);
    const newcomer = {
      ...(document as MessageDocument),
      uid: 'newcomer',
      messageId: 'newcomer@test',
      arrived: Date.now(),
    };
    await writeDocuments(
      client,
      replicated.index,
      [{ ...newcomer, item: { ...newcomer.item, messageId: 'newcomer@test' } }],
      {
        refresh: true,
      },
    );
    try {
      const pagesAfter = async (first: MessageSearchResult, limit: number) => [
        ...first.messages.map((m) => m.messageId),
        ...(await openSearchPages(replicated, { q, limit, pageToken: first.nextPageToken })).flat(),
      ];
      expect(await pagesAfter(firstDeep, deep)).toEqual(whole);
      // Past the frozen head the newcomer's statistics may swap near-ties, never repeat or skip one.
      const shallow = await pagesAfter(firstShallow, 4);
      expect(shallow.slice(0, 4 * SNAPSHOT_PAGES)).toEqual(whole.slice(0, 4 * SNAPSHOT_PAGES));
      expect([...shallow].sort()).toEqual([...whole].sort());
      expect((await searchMessages(replicated, { q, limit: 1 })).messages[0]?.messageId).toBe(
        'newcomer@test',
      );
    } finally {
      await client.request('DELETE', `/${replicated.index}/_doc/newcomer?refresh=true`);
    }
  });

  it('holds no search context open after a page: first pages past the limit of open points in time all answer', async () => {
    // A point in time opened for each first page held a context on every shard until it
    // expired: with the limit at 5, the sixth such search was refused (429).
    const limit = (value: number | null) =>
      client.request('PUT', '/_cluster/settings', { transient: { 'search.max_open_pit_context': value } });
    await limit(5);
    const opened: string[] = [];
    try {
      // The limit holds: opening points in time on the replica-less index (each adds a
      // context on every node holding one of its shards) is refused by the sixth at the latest,
      // and leaves those nodes at their limit while the searches below run.
      const open = () =>
        client.request<{ pit_id: string }>('POST', `/${single.index}/_search/point_in_time?keep_alive=1m`);
      const refusal = await (async () => {
        for (let i = 0; i < 6; i++) {
          const refused = await open().then(
            (pit) => {
              opened.push(pit.pit_id);
              return undefined;
            },
            (error: unknown) => error,
          );
          if (refused) return refused;
        }
        return new Error('six points in time opened under a limit of five');
      })();
      expect(refusal).toMatchObject({
        code: 'index_unavailable',
        message: expect.stringContaining('Point In Time'),
      });
      for (const q of ['invoice', 'budget', 'meeting', 'report', 'project', 'review']) {
        const messages = await searchMessages(replicated, { q, limit: 1 });
        const threads = await searchThreads(replicated, { q, limit: 1 });
        const listed = await listMessages(replicated, { limit: 1, after: '2000-01-01' });
        for (const page of [messages, threads, listed]) expect(page.nextPageToken).not.toBeNull();
        const second = await searchMessages(replicated, { q, limit: 1, pageToken: messages.nextPageToken });
        expect(second.messages[0]?.messageId).not.toBe(messages.messages[0]?.messageId);
      }
    } finally {
      await client.request('DELETE', '/_search/point_in_time', { pit_id: opened });
      await limit(null);
    }
  });

  it('an order that is gone (expired, or never stored) is an expired token, not another order', async () => {
    const first = await searchMessages(replicated, { q: 'invoice', limit: 2 });
    const state = JSON.parse(Buffer.from(first.nextPageToken ?? '', 'base64url').toString('utf8'));
    const forged = Buffer.from(JSON.stringify({ ...state, order: 'no-such-order' })).toString('base64url');
    await expect(
      searchMessages(replicated, { q: 'invoice', limit: 2, pageToken: forged }),
    ).rejects.toMatchObject({
      code: 'invalid_page_token',
      message: expect.stringContaining('expired'),
    });
  });

  it('lists newest first in the same order as SQLite, page after page', async () => {
    const expected = sample.engine
      .listMessages({ limit: 100, from: 'laura' })
      .messages.map((m) => m.messageId);
    const paged: string[] = [];
    let pageToken: string | undefined;
    do {
      const page = await listMessages(replicated, { limit: 7, from: 'laura', pageToken });
      paged.push(...page.messages.map((m) => m.messageId));
      pageToken = page.nextPageToken ?? undefined;
    } while (pageToken);
    expect(expected.length).toBeGreaterThan(7);
    expect(paged).toEqual(expected);
  });

  it('refuses a page token of another query', async () => {
    const first = await searchMessages(replicated, { q: 'invoice', limit: 2 });
    await expect(
      searchMessages(replicated, { q: 'budget', pageToken: first.nextPageToken }),
    ).rejects.toMatchObject({
      code: 'invalid_page_token',
    });
  });

  it('reads messages, raw bytes, threads and attachments as the archive does', async () => {
    const engine = sample.engine;
    const ids = engine.archive.db
      .prepare('SELECT message_id FROM messages ORDER BY id')
      .pluck()
      .all() as string[];
    const withAttachments = new Set<string>();
    const threads = new Set<string>();
    for (const id of ids) {
      const message = engine.getMessage(id);
      expect(await reader.getMessage(replicated, `<${id}>`, { inbox: 'demo' })).toEqual(message);
      if (message.attachments.length > 0) withAttachments.add(id);
      threads.add(message.threadId);
    }
    expect(withAttachments.size).toBeGreaterThan(0);
    for (const threadId of threads)
      expect(await reader.getThread(replicated, threadId)).toEqual(engine.getThread(threadId));
    // A thread found by one of its messages; one with replies, whose depths come from the stored paths.
    const deep = [...threads].map((t) => engine.getThread(t)).find((t) => t.entries.some((e) => e.depth > 1));
    expect(deep).toBeDefined();
    const reply = deep?.entries.find((e) => e.depth > 1)?.message.messageId ?? '';
    expect(await reader.getThread(replicated, reply)).toEqual(deep);
    for (const id of [...withAttachments].slice(0, 10)) {
      expect(await reader.getRaw(replicated, id)).toEqual(engine.getRaw(id));
      const count = engine.getMessage(id).attachments.length;
      for (let ordinal = 0; ordinal < count; ordinal++)
        expect(await reader.getAttachment(replicated, id, ordinal)).toEqual(
          await engine.getAttachment(id, ordinal),
        );
    }
    await expect(reader.getMessage(replicated, 'absent@nowhere')).rejects.toMatchObject({
      code: 'no_such_item',
    });
    await expect(reader.getThread(replicated, 'absent')).rejects.toMatchObject({ code: 'no_such_item' });
  });

  it('serves the HTTP API and MCP from the cluster as from the archive, with the same key scopes', async () => {
    const keys = Mailsift.open(keysPath);
    expect(keys.status().messages).toBe(0);
    keys.close();
    // Keys of a reader host name the cluster's inboxes.
    const clusterEnv = {
      MAILSIFT_BACKEND: 'opensearch',
      MAILSIFT_OPENSEARCH_NODES: nodeUrls(cluster as ClusterState).join(','),
      MAILSIFT_OPENSEARCH_INDEX: replicated.index,
      MAILSIFT_DB: join(tempDir('mailsift-keys-'), 'keys.db'),
    };
    const created = runCli(['--json', 'keys', 'create', '--inbox', 'demo'], clusterEnv);
    expect(created.status, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ inboxes: ['demo'] });
    expect(runCli(['--json', 'keys', 'create', '--inbox', 'absent'], clusterEnv).status).toBe(3);
    const [attached] = sample.engine.archive.db
      .prepare('SELECT message_id FROM messages WHERE attachment_count > 0 ORDER BY id')
      .pluck()
      .all() as string[];
    const message = sample.engine.getMessage(attached ?? '');
    const id = encodeURIComponent(message.messageId);
    for (const path of [
      '/v1/inboxes',
      '/v1/inboxes/demo',
      `/v1/inboxes/demo/messages/${id}`,
      `/v1/inboxes/demo/messages/${id}/raw`,
      `/v1/inboxes/demo/messages/${id}/attachments/0`,
      `/v1/inboxes/demo/threads/${encodeURIComponent(message.threadId)}`,
      '/v1/inboxes/demo/messages/absent%40nowhere',
    ]) {
      const [archive, cluster] = await Promise.all([get(overArchive, path), get(overReplicated, path)]);
      expect(cluster.status, `${path}: ${cluster.body}`).toBe(archive.status);
      expect(cluster.body.toString('utf8'), path).toBe(archive.body.toString('utf8'));
    }
    // Lists and searches: the same messages (page tokens are each backend's own).
    const list = '/v1/inboxes/demo/messages?from=laura&limit=5';
    const [archiveList, clusterList] = await Promise.all([
      getJson(overArchive, list),
      getJson(overReplicated, list),
    ]);
    expect(clusterList.json.messages).toEqual(archiveList.json.messages);
    const search = await getJson(overReplicated, '/v1/inboxes/demo/messages/search?q=INV-4471&limit=100');
    expect(search.json.messages.map((m: MessageHit) => m.messageId).sort()).toEqual(
      sqliteMatches('INV-4471').sort(),
    );
    // Another tenant's key: demo does not exist for it, on either backend.
    for (const served of [overArchive, overReplicated])
      expect(
        (await getJson(served, '/v1/inboxes/demo/messages/search?q=invoice', served.otherKey)).json.error
          .code,
      ).toBe('not_found');
    // What the cluster does not hold is named, not answered from the empty local archive.
    const retrieve = await fetch(`${overReplicated.server.url}/v1/inboxes/demo/retrieve`, {
      method: 'POST',
      headers: { authorization: `Bearer ${overReplicated.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ question: 'what was the invoice total?' }),
    });
    expect(retrieve.status).toBe(501);
    expect(((await retrieve.json()) as ApiBody).error.code).toBe('not_supported');

    // MCP over HTTP: the agent's view of a thread and an attachment is the archive's.
    const connect = async (served: Served) => {
      const client = new Client({ name: 'mailsift-test', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${served.server.url}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${served.key}` } },
        }),
      );
      return client;
    };
    const text = async (client: Client, name: string, args: Record<string, unknown>) =>
      ((await client.callTool({ name, arguments: args })) as { content: Array<{ text: string }> }).content[0]
        ?.text;
    const [archiveMcp, clusterMcp] = await Promise.all([connect(overArchive), connect(overReplicated)]);
    const calls: Array<[string, Record<string, unknown>]> = [
      ['get_thread', { inboxId: 'demo', threadId: message.threadId }],
      ['get_message', { inboxId: 'demo', messageId: message.messageId }],
      [
        'get_attachment',
        { inboxId: 'demo', threadId: message.threadId, attachmentId: `0:${message.messageId}` },
      ],
      ['list_inboxes', {}],
    ];
    const expected = new Map<string, string | undefined>();
    for (const [name, args] of calls) {
      expected.set(name, await text(archiveMcp, name, args));
      expect(await text(clusterMcp, name, args), name).toBe(expected.get(name));
    }
    await Promise.all([archiveMcp.close(), clusterMcp.close()]);

    // `mailsift mcp` over stdio with the cluster backend, from the keys-only archive.
    const stdio = new Client({ name: 'mailsift-test', version: '1.0.0' });
    await stdio.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'mcp', '--db', keysPath, '--no-drain'],
        env: {
          ...(process.env as Record<string, string>),
          MAILSIFT_BACKEND: 'opensearch',
          MAILSIFT_OPENSEARCH_NODES: nodeUrls(cluster as ClusterState).join(','),
          MAILSIFT_OPENSEARCH_INDEX: replicated.index,
        },
        stderr: 'pipe',
      }),
    );
    try {
      for (const [name, args] of calls.slice(0, 2))
        expect(await text(stdio, name, args), name).toBe(expected.get(name));
    } finally {
      await stdio.close();
    }
  });

  it('answers the CLI without an archive file, checks the copy against one; exit code 6 when no node answers', () => {
    const env = {
      MAILSIFT_BACKEND: 'opensearch',
      MAILSIFT_OPENSEARCH_NODES: nodeUrls(cluster as ClusterState).join(','),
      MAILSIFT_OPENSEARCH_INDEX: replicated.index,
      MAILSIFT_DB: join(sample.root, 'absent.db'),
    };
    const search = runCli(['--json', 'search', 'INV-4471'], env);
    expect(search.status, search.stderr).toBe(0);
    const found = (JSON.parse(search.stdout) as MessageSearchResult).messages.map((m) => m.messageId);
    expect(found.sort()).toEqual(sqliteMatches('INV-4471').sort());
    const list = runCli(['--json', 'list', '--from', 'laura', '--limit', '3'], env);
    expect(list.status, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout).messages).toEqual(
      sample.engine.listMessages({ from: 'laura', limit: 3 }).messages,
    );
    // show, thread and attachment print what they print from the archive.
    const sqliteEnv = { MAILSIFT_DB: join(sample.root, 'archive.db') };
    const [attached] = sample.engine.archive.db
      .prepare('SELECT message_id FROM messages WHERE attachment_count > 0 ORDER BY id')
      .pluck()
      .all() as string[];
    for (const args of [
      ['show', attached],
      ['--json', 'show', attached],
      ['show', '--raw', attached],
      ['thread', attached],
      ['--json', 'thread', attached],
      ['--json', 'attachment', attached, '0'],
    ] as string[][]) {
      const cluster = runCli(args, env);
      expect(cluster.status, cluster.stderr).toBe(0);
      expect(cluster.stdout).toBe(runCli(args, sqliteEnv).stdout);
    }
    expect(existsSync(env.MAILSIFT_DB)).toBe(false);
    const check = runCli(['--json', 'check', '--backend', 'opensearch'], {
      ...env,
      MAILSIFT_DB: join(sample.root, 'archive.db'),
    });
    expect(check.status, check.stderr).toBe(0);
    expect(JSON.parse(check.stdout)).toMatchObject({ ok: true, cluster: sample.engine.status().messages });
    const down = runCli(['--json', 'search', 'INV-4471'], {
      ...env,
      MAILSIFT_OPENSEARCH_NODES: 'http://127.0.0.1:1',
    });
    expect(down.status).toBe(6);
    expect(JSON.parse(down.stdout).error.code).toBe('index_unavailable');
  });

  it('a killed node: index_unavailable without a replica, never a short page; complete answers with one', async () => {
    const state = cluster as ClusterState;
    const q = 'invoice';
    const complete = (await openSearchPages(replicated, { q, limit: 100 })).flat().sort();
    expect((await openSearchPages(single, { q, limit: 100 })).flat().sort()).toEqual(complete);
    // The node holding a primary of the replica-less index (node-0 is kept: the test's
    // health checks start there, though any live node would answer).
    const shards = await client.request<Array<{ node: string; prirep: string }>>(
      'GET',
      `/_cat/shards/${single.index}?format=json&h=node,prirep`,
    );
    const victim = state.nodes.find((n) => n.index !== 0 && shards.some((s) => s.node === `node-${n.index}`));
    if (!victim) throw new Error(`no shard of ${single.index} outside node-0: ${JSON.stringify(shards)}`);
    // A search begun before the kill: its order is frozen, so only the check of each page's
    // shards stands between the next page and a short one.
    const begun = await searchMessages(single, { q, limit: 5 });
    process.kill(victim.pid, 'SIGKILL');
    await expect(
      searchMessages(single, { q, limit: 5, pageToken: begun.nextPageToken }),
    ).rejects.toMatchObject({
      code: 'index_unavailable',
    });

    // Right after the kill (the node not yet removed: shard failures) and after it left
    // (missing shards, which OpenSearch alone reports as `failed: 0`), every answer is the error.
    const deadline = Date.now() + 3_000;
    let attempts = 0;
    while (Date.now() < deadline) {
      attempts++;
      const error = await searchMessages(single, { q, limit: 100 }).then(
        (page) => new Error(`answered ${page.count} of ${complete.length}`),
        (e: unknown) => e,
      );
      expect(isMailsiftError(error) && error.code).toBe('index_unavailable');
    }
    expect(attempts).toBeGreaterThan(1);
    await expect(listMessages(single, { limit: 5 })).rejects.toMatchObject({ code: 'index_unavailable' });
    // Over HTTP: 503 index_unavailable, never a short 200.
    const served = await getJson(overSingle, `/v1/inboxes/demo/messages/search?q=${q}&limit=100`);
    expect(served).toMatchObject({ status: 503, json: { error: { code: 'index_unavailable' } } });

    // With a replica, once the survivors hold every shard (the index yellow: the lost copies'
    // replicas promoted; the cluster stays red for the replica-less index), answers are complete.
    const health = await client.request<{ status: string; timed_out: boolean }>(
      'GET',
      `/_cluster/health/${replicated.index}?wait_for_status=yellow&wait_for_nodes=2&timeout=60s`,
    );
    expect(health).toMatchObject({ timed_out: false });
    expect((await openSearchPages(replicated, { q, limit: 100 })).flat().sort()).toEqual(complete);
    const servedPages: string[] = [];
    let path = `/v1/inboxes/demo/messages/search?q=${q}&limit=100`;
    for (;;) {
      const page = await getJson(overReplicated, path);
      expect(page.status).toBe(200);
      servedPages.push(...page.json.messages.map((m: MessageHit) => m.messageId));
      if (!page.json.nextPageToken) break;
      path = `/v1/inboxes/demo/messages/search?q=${q}&limit=100&pageToken=${encodeURIComponent(page.json.nextPageToken)}`;
    }
    expect(servedPages.sort()).toEqual(complete);
  }, 120_000);
});

describe('assertComplete', () => {
  it('rejects failed shards, missing shards and timeouts; accepts skipped shards', () => {
    const code = (response: Parameters<typeof assertComplete>[0]) => {
      try {
        assertComplete(response);
        return 'ok';
      } catch (error) {
        return isMailsiftError(error) ? error.code : 'other';
      }
    };
    expect(code({ _shards: { total: 3, successful: 3, failed: 0 }, timed_out: false })).toBe('ok');
    expect(code({ _shards: { total: 3, successful: 2, skipped: 1, failed: 0 } })).toBe('ok');
    expect(code({ _shards: { total: 3, successful: 2, failed: 1 } })).toBe('index_unavailable');
    // A node that left: OpenSearch counts its shard neither successful nor failed.
    expect(code({ _shards: { total: 3, successful: 2, skipped: 0, failed: 0 } })).toBe('index_unavailable');
    expect(code({ _shards: { total: 3, successful: 3, failed: 0 }, timed_out: true })).toBe(
      'index_unavailable',
    );
  });
});
