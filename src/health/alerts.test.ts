import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSampleArchive, type SampleArchive } from '../eval/sample-archive.js';
import { type Alert, AlertTracker, DEFAULT_THRESHOLDS, WebhookSender, watchCycle } from './index.js';

/** A loopback webhook that records every alert and answers with the scripted statuses (then 200). */
async function startReceiver(script: number[] = []) {
  const received: Alert[] = [];
  let attempts = 0;
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      attempts++;
      const status = script.shift() ?? 200;
      if (status === 200) received.push(JSON.parse(body) as Alert);
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { url, received, attempts: () => attempts, close: () => new Promise((r) => server.close(r)) };
}

describe('alerts through watch cycles', () => {
  let sample: SampleArchive;
  beforeAll(async () => {
    sample = await openSampleArchive();
  });
  afterAll(() => sample.engine.close());

  it('posts exactly once per transition into fail and once on recovery', async () => {
    const receiver = await startReceiver();
    const webhook = new WebhookSender(receiver.url, { baseDelayMs: 5 });
    const tracker = new AlertTracker();
    const plan = [{ inbox: 'demo', paths: sample.sources }];
    let offset = 0;
    const cycle = () =>
      watchCycle(sample.engine, {
        plan,
        thresholds: DEFAULT_THRESHOLDS,
        tracker,
        webhook,
        now: () => new Date(Date.now() + offset),
      });

    expect((await cycle()).alerts).toEqual([]);
    offset = 25 * 3_600_000; // the clock jumps a day: both sources look stalled
    const failing = await cycle();
    expect(failing.report.status).toBe('fail');
    expect(failing.alerts.map((a) => [a.event, a.check, a.source])).toEqual([
      ['fail', 'sync', sample.sources[0]],
      ['fail', 'sync', sample.sources[1]],
    ]);
    expect((await cycle()).alerts).toEqual([]); // still failing: no repeat
    expect((await cycle()).alerts).toEqual([]);
    offset = 0;
    const recovered = await cycle();
    expect(recovered.alerts.map((a) => a.event)).toEqual(['recovered', 'recovered']);
    expect((await cycle()).alerts).toEqual([]);

    await webhook.idle();
    expect(receiver.received.map((a) => `${a.event} ${a.key}`)).toEqual([
      `fail demo/${sample.sources[0]}/sync`,
      `fail demo/${sample.sources[1]}/sync`,
      `recovered demo/${sample.sources[0]}/sync`,
      `recovered demo/${sample.sources[1]}/sync`,
    ]);
    expect(receiver.received[0]).toMatchObject({
      status: 'fail',
      overall: 'fail',
      inbox: 'demo',
      message: expect.stringMatching(/ago$/),
    });
    await receiver.close();
  });

  it('retries a failing webhook with backoff and delivers once, in order', async () => {
    const receiver = await startReceiver([503, 500]);
    const errors: string[] = [];
    const webhook = new WebhookSender(receiver.url, { baseDelayMs: 5, onError: (m) => errors.push(m) });
    const alert = (event: 'fail' | 'recovered'): Alert => ({
      event,
      at: new Date().toISOString(),
      key: 'demo/sync',
      inbox: 'demo',
      source: null,
      check: 'sync',
      status: event === 'fail' ? 'fail' : 'ok',
      message: 'test',
      overall: event === 'fail' ? 'fail' : 'ok',
    });
    webhook.send(alert('fail'));
    webhook.send(alert('recovered'));
    await webhook.idle();
    expect(receiver.attempts()).toBe(4);
    expect(receiver.received.map((a) => a.event)).toEqual(['fail', 'recovered']);
    expect(errors).toEqual([
      'webhook attempt 1 failed (HTTP 503); retrying in 5 ms',
      'webhook attempt 2 failed (HTTP 500); retrying in 10 ms',
    ]);
    await receiver.close();
  });

  it('never blocks a cycle while the webhook is down', async () => {
    const receiver = await startReceiver();
    await receiver.close(); // nothing listens there any more
    const errors: string[] = [];
    const webhook = new WebhookSender(receiver.url, { baseDelayMs: 60_000, onError: (m) => errors.push(m) });
    const tracker = new AlertTracker();
    const result = await watchCycle(sample.engine, {
      plan: [{ inbox: 'demo', paths: sample.sources }],
      thresholds: { ...DEFAULT_THRESHOLDS, syncFailAfter: 3600, syncWarnAfter: 1 },
      tracker,
      webhook,
      now: () => new Date(Date.now() + 2 * 3_600_000),
    });
    // The cycle finished with its alerts queued although the first delivery is still failing.
    expect(result.alerts).toHaveLength(2);
    expect(sample.engine.searchMessages({ q: 'INV-4471', inbox: 'demo' }).count).toBeGreaterThan(0);
    // Wait for the first failed attempt, then give up on the rest.
    while (errors.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(errors[0]).toMatch(/webhook attempt 1 failed .*retrying in 60000 ms/);
    webhook.close();
    await webhook.idle();
  });
});
