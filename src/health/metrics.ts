// Prometheus metrics (prom-client, one registry per server, never the global one): the
// health figures as gauges, refreshed per scrape, and request counts and latencies by route.

import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { eachCheck, type HealthReport } from './checks.js';

const STATUS_VALUE = { ok: 0, warn: 1, fail: 2 } as const;

export class MailsiftMetrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'mailsift_http_requests_total',
    help: 'HTTP requests by method, route pattern and status code',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  private readonly latency = new Histogram({
    name: 'mailsift_http_request_duration_seconds',
    help: 'HTTP request latency by method and route pattern',
    labelNames: ['method', 'route'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });
  private readonly gauges = {
    check: this.gauge('mailsift_health_check_status', 'health check status: 0 ok, 1 warn, 2 fail', [
      'inbox',
      'source',
      'check',
    ]),
    messages: this.gauge('mailsift_messages_stored', 'messages stored per inbox', ['inbox']),
    unindexed: this.gauge('mailsift_messages_unindexed', 'stored messages not in the keyword index', [
      'inbox',
    ]),
    backlog: this.gauge(
      'mailsift_embedding_backlog',
      'chunks waiting for the embedder (absent: none configured)',
      ['inbox'],
    ),
    awaitingChunks: this.gauge(
      'mailsift_threads_awaiting_chunks',
      'changed threads whose chunks are not built yet, so not in the embedding backlog (absent: no embedder)',
      ['inbox'],
    ),
    summaries: this.gauge(
      'mailsift_summary_backlog',
      'thread summaries waiting for the LLM (absent: none configured)',
      ['inbox'],
    ),
    summariesFailing: this.gauge(
      'mailsift_summaries_failing',
      'waiting thread summaries whose last LLM attempt failed (absent: no LLM)',
      ['inbox'],
    ),
    failures: this.gauge('mailsift_ingest_failures', 'recorded ingest failures by reason group', [
      'inbox',
      'reason',
    ]),
    syncAge: this.gauge('mailsift_source_sync_age_seconds', 'seconds since the last completed sync', [
      'inbox',
      'source',
    ]),
    seen: this.gauge('mailsift_source_messages_seen', 'messages the source held at its last run', [
      'inbox',
      'source',
    ]),
    stored: this.gauge('mailsift_source_messages_stored', 'locations stored from the source', [
      'inbox',
      'source',
    ]),
  };

  private gauge<L extends string>(name: string, help: string, labelNames: readonly L[]): Gauge<L> {
    return new Gauge({ name, help, labelNames, registers: [this.registry] });
  }

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.requests.inc({ method, route, status: String(status) });
    this.latency.observe({ method, route }, seconds);
  }

  /** Replaces every health gauge with the figures of `report` (series of removed inboxes vanish). */
  updateHealth(report: HealthReport): void {
    for (const gauge of Object.values(this.gauges)) gauge.reset();
    for (const { inbox, source, check } of eachCheck(report))
      this.gauges.check.set(
        { inbox: inbox ?? '', source: source ?? '', check: check.name },
        STATUS_VALUE[check.status],
      );
    for (const inbox of report.inboxes) {
      const labels = { inbox: inbox.inbox };
      this.gauges.messages.set(labels, inbox.messages);
      this.gauges.unindexed.set(labels, inbox.unindexed);
      if (inbox.embeddingBacklog !== null) this.gauges.backlog.set(labels, inbox.embeddingBacklog);
      if (inbox.threadsAwaitingChunks !== null)
        this.gauges.awaitingChunks.set(labels, inbox.threadsAwaitingChunks);
      if (inbox.summaryBacklog !== null) this.gauges.summaries.set(labels, inbox.summaryBacklog);
      if (inbox.summariesFailing !== null) this.gauges.summariesFailing.set(labels, inbox.summariesFailing);
      for (const group of inbox.failuresByReason)
        this.gauges.failures.set({ ...labels, reason: group.reason }, group.count);
      for (const source of inbox.sources) {
        const at = { ...labels, source: source.path };
        if (source.lastSyncAgeSeconds !== null) this.gauges.syncAge.set(at, source.lastSyncAgeSeconds);
        if (source.seenAtSource !== null) this.gauges.seen.set(at, source.seenAtSource);
        this.gauges.stored.set(at, source.stored);
      }
    }
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }
}
