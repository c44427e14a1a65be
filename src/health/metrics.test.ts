import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSampleArchive, type SampleArchive } from '../eval/sample-archive.js';
import { createApp } from '../surfaces/http/index.js';

interface Sample {
  readonly name: string;
  readonly labels: Record<string, string>;
  readonly value: number;
}
interface Family {
  readonly name: string;
  help: string | null;
  readonly type: string;
  readonly samples: Sample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
const SUFFIXES: Record<string, readonly string[]> = {
  counter: [''],
  gauge: [''],
  untyped: [''],
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['', '_sum', '_count'],
};

function parseValue(text: string, line: number): number {
  if (text === '+Inf') return Number.POSITIVE_INFINITY;
  if (text === '-Inf') return Number.NEGATIVE_INFINITY;
  if (text === 'NaN') return Number.NaN;
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(text))
    throw new Error(`line ${line}: bad value '${text}'`);
  return Number(text);
}

/**
 * A strict parser of the Prometheus text exposition format 0.0.4: metric and label name
 * grammar, escaped label values, float values, HELP/TYPE at most once and TYPE before the
 * family's samples, families contiguous, sample names matching their family's type.
 */
function parseExposition(text: string): Map<string, Family> {
  if (!text.endsWith('\n')) throw new Error('exposition must end with a newline');
  const families = new Map<string, Family>();
  const closed = new Set<string>();
  let current: Family | null = null;
  const lines = text.slice(0, -1).split('\n');
  lines.forEach((line, index) => {
    const at = index + 1;
    const meta = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
    if (meta) {
      const [, kind, name = '', rest = ''] = meta;
      if (!METRIC_NAME.test(name)) throw new Error(`line ${at}: bad metric name '${name}'`);
      if (closed.has(name)) throw new Error(`line ${at}: ${name} is not contiguous`);
      if (current && current.name !== name) closed.add(current.name);
      if (kind === 'TYPE') {
        if (!TYPES.has(rest)) throw new Error(`line ${at}: bad type '${rest}'`);
        const existing = families.get(name);
        if (existing && (existing.type !== 'untyped' || existing.samples.length > 0))
          throw new Error(`line ${at}: second TYPE for ${name}`);
        current = { name, help: existing?.help ?? null, type: rest, samples: [] };
        families.set(name, current);
      } else {
        if (/\\[^\\n]/.test(rest.replace(/\\\\/g, ''))) throw new Error(`line ${at}: bad escape in HELP`);
        const family = families.get(name) ?? { name, help: null, type: 'untyped', samples: [] };
        if (family.help !== null) throw new Error(`line ${at}: second HELP for ${name}`);
        family.help = rest;
        families.set(name, family);
        current = family;
      }
      return;
    }
    // The format ignores empty lines and other comments.
    if (line.trim() === '' || line.startsWith('#')) return;
    const match = /^([^\s{]+)(\{.*\})? (\S+)( -?\d+)?$/.exec(line);
    if (!match) throw new Error(`line ${at}: not a sample: '${line}'`);
    const [, name = '', labelText, valueText = ''] = match;
    if (!METRIC_NAME.test(name)) throw new Error(`line ${at}: bad metric name '${name}'`);
    const family = current;
    if (!family || !(SUFFIXES[family.type] ?? []).some((s) => `${family.name}${s}` === name))
      throw new Error(`line ${at}: sample ${name} without a TYPE before it`);
    const labels: Record<string, string> = {};
    if (labelText) {
      let rest = labelText.slice(1, -1);
      while (rest.length > 0) {
        const pair = /^([^=]+)="((?:[^"\\\n]|\\[\\"n])*)"(,|$)/.exec(rest);
        if (!pair) throw new Error(`line ${at}: bad labels '${labelText}'`);
        const [all, label = '', raw = ''] = pair;
        if (!LABEL_NAME.test(label) || label.startsWith('__'))
          throw new Error(`line ${at}: bad label name '${label}'`);
        if (label in labels) throw new Error(`line ${at}: duplicate label ${label}`);
        labels[label] = raw.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
        rest = rest.slice(all.length);
      }
    }
    family.samples.push({ name, labels, value: parseValue(valueText, at) });
  });
  for (const family of families.values()) {
    if (family.type !== 'histogram') continue;
    const series = new Map<string, Sample[]>();
    for (const s of family.samples.filter((s) => s.name.endsWith('_bucket'))) {
      const { le, ...rest } = s.labels;
      if (le === undefined) throw new Error(`${family.name}: bucket without le`);
      const key = JSON.stringify(rest);
      series.set(key, [...(series.get(key) ?? []), s]);
    }
    for (const [key, buckets] of series) {
      const values = buckets.map((b) => b.value);
      if (values.some((v, i) => i > 0 && v < (values[i - 1] as number)))
        throw new Error(`${family.name}: buckets not cumulative`);
      const count = family.samples.find((s) => s.name.endsWith('_count') && JSON.stringify(s.labels) === key);
      if (buckets.at(-1)?.labels.le !== '+Inf' || count?.value !== buckets.at(-1)?.value)
        throw new Error(`${family.name}: +Inf bucket must equal _count`);
    }
  }
  return families;
}

describe('strict exposition parser', () => {
  it('rejects what Prometheus rejects', () => {
    expect(() => parseExposition('x 1\n')).toThrow(/without a TYPE/);
    expect(() => parseExposition('# TYPE x gauge\nx{a="b} 1\n')).toThrow(/bad labels/);
    expect(() => parseExposition('# TYPE x gauge\nx{a="\\q"} 1\n')).toThrow(/bad labels/);
    expect(() => parseExposition('# TYPE x gauge\nx 1e\n')).toThrow(/bad value/);
    expect(() => parseExposition('# TYPE 1x gauge\n')).toThrow(/bad metric name/);
    expect(() => parseExposition('# TYPE x gauge\nx 1\n# TYPE y gauge\ny 1\n# TYPE x gauge\n')).toThrow(
      /contiguous/,
    );
    expect(
      parseExposition('# HELP x a \\\\ b\n# TYPE x gauge\nx{p="a\\"b\\nc"} -Inf\n').get('x')?.samples[0],
    ).toEqual({
      name: 'x',
      labels: { p: 'a"b\nc' },
      value: Number.NEGATIVE_INFINITY,
    });
  });
});

describe('GET /metrics', () => {
  let sample: SampleArchive;
  beforeAll(async () => {
    sample = await openSampleArchive();
  });
  afterAll(() => sample.engine.close());

  it('exposes the health figures and request counts and latencies by route', async () => {
    const app = createApp({ engine: sample.engine, auth: false });
    await app.request('/v1/inboxes/demo/messages/search?q=INV-4471');
    await app.request('/v1/inboxes/demo/messages/search?q=stripe.com');
    await app.request(`/v1/inboxes/demo/messages/${encodeURIComponent('q3-budget-decision@acme-corp.com')}`);
    await app.request('/v1/nowhere');
    const health = await app.request('/v1/health');
    expect(health.status).toBe(200);
    expect(((await health.json()) as { status: string }).status).toBe('ok');

    const response = await app.request('/metrics');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const families = parseExposition(await response.text());
    const value = (name: string, labels: Record<string, string>, family = name) =>
      families
        .get(family)
        ?.samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
        ?.value;

    expect(families.get('mailsift_messages_stored')?.type).toBe('gauge');
    expect(value('mailsift_messages_stored', { inbox: 'demo' })).toBe(332);
    expect(value('mailsift_messages_unindexed', { inbox: 'demo' })).toBe(0);
    expect(
      value('mailsift_source_messages_seen', { inbox: 'demo', source: sample.sources[0] as string }),
    ).toBe(258);
    expect(value('mailsift_health_check_status', { inbox: '', check: 'index_consistency' })).toBe(0);
    expect(families.get('mailsift_embedding_backlog')?.samples).toEqual([]);

    expect(families.get('mailsift_http_requests_total')?.type).toBe('counter');
    const route = '/v1/inboxes/:inboxId/messages/search';
    expect(value('mailsift_http_requests_total', { method: 'GET', route, status: '200' })).toBe(2);
    expect(value('mailsift_http_requests_total', { route: '/v1/inboxes/:inboxId/messages/:messageId' })).toBe(
      1,
    );
    expect(value('mailsift_http_requests_total', { route: 'unmatched', status: '404' })).toBe(1);
    expect(families.get('mailsift_http_request_duration_seconds')?.type).toBe('histogram');
    const histogram = 'mailsift_http_request_duration_seconds';
    expect(value(`${histogram}_count`, { route }, histogram)).toBe(2);
  });

  it('needs a key for every inbox when auth is on, and tells anonymous health callers only the status', async () => {
    const app = createApp({ engine: sample.engine, auth: true });
    expect((await app.request('/metrics')).status).toBe(401);
    const health = await app.request('/v1/health');
    expect(await health.json()).toEqual({ status: 'ok', checkedAt: expect.any(String) });
  });
});
