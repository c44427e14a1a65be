import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/temp.js';
import { openSampleArchive, type SampleArchive } from '../eval/sample-archive.js';
import { reindex, unindexMessage } from '../index/index.js';
import { embedderProbe, embedPending, openAiEmbedder, syncChunks } from '../rag/index.js';
import { startLoopback } from '../rag/openai-loopback.js';
import { openFixtureArchive } from '../rag/test-helpers.js';
import {
  checkHealth,
  DEFAULT_THRESHOLDS,
  type EmbedderProbe,
  eachCheck,
  type HealthReport,
  loadHealthThresholds,
  reasonGroup,
} from './index.js';

const HOUR = 3_600_000;
const statusOf = (report: HealthReport, key: string) => eachCheck(report).find((c) => c.key === key)?.check;

describe('checkHealth on the sample', () => {
  let sample: SampleArchive;
  let maildir: string;
  let synced: number;
  beforeAll(async () => {
    sample = await openSampleArchive();
    maildir = sample.sources[0] as string;
    synced = Date.now();
  });
  afterAll(() => sample.engine.close());

  it('reports every check ok right after a sync', () => {
    const report = checkHealth(sample.engine, DEFAULT_THRESHOLDS, new Date(synced));
    expect(eachCheck(report).filter((c) => c.check.status !== 'ok')).toEqual([]);
    expect(report.status).toBe('ok');
    const demo = report.inboxes[0];
    expect(demo).toMatchObject({
      inbox: 'demo',
      messages: 332,
      unindexed: 0,
      embeddingBacklog: null,
      threadsAwaitingChunks: null,
    });
    expect(demo?.sources.map((s) => [s.kind, s.seenAtSource, s.stored, s.failed])).toEqual([
      ['maildir', 258, 258, 0],
      ['mbox', 93, 93, 0],
    ]);
    expect(statusOf(report, 'demo/embedding_backlog')?.message).toBe('no embedder configured');
  });

  it('turns a stalled source warn after 1 h and fail after 24 h', () => {
    const at = (ms: number) =>
      statusOf(checkHealth(sample.engine, DEFAULT_THRESHOLDS, new Date(synced + ms)), `demo/${maildir}/sync`);
    expect(at(59 * 60_000)?.status).toBe('ok');
    expect(at(2 * HOUR)).toMatchObject({ status: 'warn', message: 'last completed sync 2 h ago' });
    const stalled = checkHealth(sample.engine, DEFAULT_THRESHOLDS, new Date(synced + 25 * HOUR));
    expect(statusOf(stalled, `demo/${maildir}/sync`)?.status).toBe('fail');
    expect(stalled.status).toBe('fail');
    const relaxed = { ...DEFAULT_THRESHOLDS, syncFailAfter: 48 * 3600 };
    expect(checkHealth(sample.engine, relaxed, new Date(synced + 25 * HOUR)).status).toBe('warn');
  });

  it('warns when the index lags the store, and fails when index rows are corrupt', () => {
    const db = sample.engine.archive.db;
    const rowids = db.prepare('SELECT id FROM messages ORDER BY id LIMIT 3').pluck().all() as number[];
    // Unindexed cleanly: lagging, not inconsistent.
    for (const rowid of rowids.slice(0, 2)) unindexMessage(db, rowid);
    let report = checkHealth(sample.engine, DEFAULT_THRESHOLDS, new Date(synced));
    expect(statusOf(report, 'demo/unindexed')).toMatchObject({ status: 'warn', value: 2 });
    expect(statusOf(report, 'archive/index_consistency')?.status).toBe('ok');
    expect(report.status).toBe('warn');
    expect(
      checkHealth(sample.engine, { ...DEFAULT_THRESHOLDS, unindexedFail: 2 }, new Date(synced)).status,
    ).toBe('fail');
    // A keyword_docs row deleted behind the index's back leaves an orphan FTS row.
    db.prepare('DELETE FROM keyword_docs WHERE rowid = ?').run(rowids[2]);
    report = checkHealth(sample.engine, DEFAULT_THRESHOLDS, new Date(synced));
    expect(statusOf(report, 'demo/unindexed')?.value).toBe(3);
    expect(statusOf(report, 'archive/index_consistency')).toMatchObject({ status: 'fail' });
    expect(statusOf(report, 'archive/index_consistency')?.message).toMatch(
      /FTS rows without a document record: 1/,
    );
    reindex(db);
    expect(checkHealth(sample.engine, DEFAULT_THRESHOLDS, new Date(synced)).status).toBe('ok');
  });

  it('warns on a backlog that keeps growing for 15 min, or that is over 1,000', () => {
    let backlog = 0;
    let lastError: string | null = null;
    const embedder: EmbedderProbe = {
      name: 'test-embedder',
      backlog: () => backlog,
      threadsAwaitingChunks: () => 0,
      lastError: () => lastError,
    };
    const at = (minutes: number, value: number) => {
      backlog = value;
      return statusOf(
        checkHealth(sample.engine, DEFAULT_THRESHOLDS, new Date(synced + minutes * 60_000), { embedder }),
        'demo/embedding_backlog',
      );
    };
    expect(at(0, 10)?.status).toBe('ok');
    expect(at(5, 20)?.status).toBe('ok');
    expect(at(10, 20)?.status).toBe('ok');
    expect(at(14, 30)?.status).toBe('ok');
    expect(at(16, 40)).toMatchObject({
      status: 'warn',
      message: '40 chunk(s) waiting for test-embedder: growing for 16 min',
      value: 40,
    });
    expect(at(20, 5)?.status).toBe('ok');
    expect(at(21, 1001)?.message).toMatch(/over 1000/);
    expect(at(22, 900)?.status).toBe('ok');
    lastError = 'connection refused';
    expect(at(23, 900)).toMatchObject({
      status: 'warn',
      message: expect.stringMatching(/last error: connection refused/),
    });
  });
});

describe('embedding backlog honesty', () => {
  it('counts changed threads whose chunks are not built yet, so the check never reads 0 while work remains', async () => {
    const server = await startLoopback();
    const { engine } = await openFixtureArchive('budget-thread');
    try {
      const embedder = openAiEmbedder({ url: server.url, model: 'loopback-64' });
      const probe = embedderProbe(engine, embedder);
      const report = () => checkHealth(engine, DEFAULT_THRESHOLDS, new Date(), { embedder: probe });
      // Ingest stored the thread and marked it dirty; no chunk exists yet.
      const stored = report();
      expect(stored.inboxes[0]).toMatchObject({ embeddingBacklog: 0, threadsAwaitingChunks: 1 });
      expect(statusOf(stored, 'work/embedding_backlog')).toMatchObject({
        message: '0 chunk(s) waiting for openai:loopback-64, 1 changed thread(s) not yet chunked',
        value: 1,
      });

      const { chunksAdded } = syncChunks(engine.archive.db);
      expect(chunksAdded).toBeGreaterThan(1);
      const chunked = report();
      expect(chunked.inboxes[0]).toMatchObject({ embeddingBacklog: chunksAdded, threadsAwaitingChunks: 0 });
      expect(statusOf(chunked, 'work/embedding_backlog')?.value).toBe(chunksAdded);

      await embedPending(engine, embedder);
      const drained = report();
      expect(drained.inboxes[0]).toMatchObject({ embeddingBacklog: 0, threadsAwaitingChunks: 0 });
      expect(statusOf(drained, 'work/embedding_backlog')).toMatchObject({
        status: 'ok',
        message: '0 chunk(s) waiting for openai:loopback-64',
        value: 0,
      });
    } finally {
      engine.close();
      await server.close();
    }
  });
});

describe('ingest failures', () => {
  it('groups failure reasons by their first words', async () => {
    expect(reasonGroup('message larger than 67108864 bytes: 70000000')).toBe('message larger than N bytes');
    const root = tempDir('mailsift-health-');
    const dir = join(root, 'mail');
    mkdirSync(dir);
    writeFileSync(join(dir, 'empty-1.eml'), '');
    writeFileSync(join(dir, 'empty-2.eml'), '');
    const { Mailsift } = await import('../engine.js');
    const engine = Mailsift.open(join(root, 'a.db'));
    await engine.ingest([dir], { inbox: 'broken', workers: 0 });
    const report = checkHealth(engine, DEFAULT_THRESHOLDS, new Date());
    const inbox = report.inboxes[0];
    expect(inbox?.failuresByReason).toHaveLength(1);
    expect(inbox?.failuresByReason[0]?.count).toBe(2);
    expect(statusOf(report, 'broken/ingest_failures')?.status).toBe('ok');
    expect(
      statusOf(checkHealth(engine, { ...DEFAULT_THRESHOLDS, failuresWarn: 2 }), 'broken/ingest_failures')
        ?.status,
    ).toBe('warn');
    expect(inbox?.sources[0]).toMatchObject({ seenAtSource: 2, stored: 0, failed: 2 });
    engine.close();
  });
});

describe('loadHealthThresholds', () => {
  const dir = tempDir('mailsift-config-');
  writeFileSync(
    join(dir, 'mailsift.config.json'),
    JSON.stringify({ health: { syncWarnAfter: '30m', syncFailAfter: 7200, unindexedFail: 10 } }),
  );

  it('reads the config file, then lets MAILSIFT_HEALTH_* variables override it', () => {
    expect(loadHealthThresholds({ cwd: dir, env: {} })).toEqual({
      ...DEFAULT_THRESHOLDS,
      syncWarnAfter: 1800,
      syncFailAfter: 7200,
      unindexedFail: 10,
    });
    const env = { MAILSIFT_HEALTH_SYNC_FAIL_AFTER: '1d', MAILSIFT_HEALTH_UNINDEXED_FAIL: 'off' };
    expect(loadHealthThresholds({ cwd: dir, env })).toMatchObject({
      syncFailAfter: 86_400,
      unindexedFail: null,
    });
    expect(loadHealthThresholds({ cwd: tmpdir(), env: {}, configPath: undefined })).toBeDefined();
  });

  it('names the bad setting', () => {
    expect(() =>
      loadHealthThresholds({ cwd: dir, env: { MAILSIFT_HEALTH_SYNC_WARN_AFTER: 'soon' } }),
    ).toThrow(/MAILSIFT_HEALTH_SYNC_WARN_AFTER must be a duration/);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ health: { backlogWarn: -1 } }));
    expect(() => loadHealthThresholds({ configPath: bad, env: {} })).toThrow(/config health\.backlogWarn/);
    writeFileSync(bad, JSON.stringify({ health: { syncWarnAfer: '1h' } }));
    expect(() => loadHealthThresholds({ configPath: bad, env: {} })).toThrow(/syncWarnAfer|Unrecognized/);
  });
});
