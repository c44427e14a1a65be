// Alerts: one per transition of a check into `fail` and one when it recovers, never one per
// run; delivered to a webhook in the background, in order, retried with exponential backoff,
// so a webhook that is down never blocks ingestion or search.

import { eachCheck, type HealthReport } from './checks.js';

export interface Alert {
  readonly event: 'fail' | 'recovered';
  readonly at: string;
  /** `archive/<check>`, `<inbox>/<check>` or `<inbox>/<source>/<check>`. */
  readonly key: string;
  readonly inbox: string | null;
  readonly source: string | null;
  readonly check: string;
  readonly status: string;
  readonly message: string;
  /** The report's overall status when the alert was raised. */
  readonly overall: string;
}

/** Remembers each check's last status and turns reports into transitions. */
export class AlertTracker {
  private readonly failing = new Set<string>();

  observe(report: HealthReport): Alert[] {
    const alerts: Alert[] = [];
    const present = new Set<string>();
    for (const { key, inbox, source, check } of eachCheck(report)) {
      present.add(key);
      const was = this.failing.has(key);
      const is = check.status === 'fail';
      if (was === is) continue;
      if (is) this.failing.add(key);
      else this.failing.delete(key);
      alerts.push({
        event: is ? 'fail' : 'recovered',
        at: report.checkedAt,
        key,
        inbox,
        source,
        check: check.name,
        status: check.status,
        message: check.message,
        overall: report.status,
      });
    }
    // A check that disappeared (source removed from the archive) is forgotten, not "recovered".
    for (const key of this.failing) if (!present.has(key)) this.failing.delete(key);
    return alerts;
  }
}

export interface WebhookOptions {
  /** First retry delay; doubles per attempt up to maxDelayMs. */
  readonly baseDelayMs?: number;
  readonly maxDelayMs?: number;
  /** Attempts per alert before it is dropped (reported through onError). */
  readonly maxAttempts?: number;
  readonly timeoutMs?: number;
  /** Alerts queued at most; the oldest are dropped beyond it, so a dead webhook cannot grow memory. */
  readonly maxQueue?: number;
  readonly onError?: (message: string) => void;
}

/** Posts alerts as JSON, one at a time and in order; `send` only queues. */
export class WebhookSender {
  private readonly queue: Alert[] = [];
  private running: Promise<void> | null = null;
  private closed = false;
  private wake: (() => void) | null = null;
  private readonly options: Required<WebhookOptions>;

  constructor(
    readonly url: string,
    options: WebhookOptions = {},
  ) {
    this.options = {
      baseDelayMs: 1000,
      maxDelayMs: 5 * 60_000,
      maxAttempts: 12,
      timeoutMs: 10_000,
      maxQueue: 1000,
      onError: () => {},
      ...options,
    };
  }

  send(alert: Alert): void {
    if (this.closed) return;
    this.queue.push(alert);
    if (this.queue.length > this.options.maxQueue) {
      const dropped = this.queue.shift();
      this.options.onError(`webhook queue full: dropped alert ${dropped?.event} ${dropped?.key}`);
    }
    this.running ??= this.drain().finally(() => {
      this.running = null;
    });
  }

  /** Resolves when every queued alert was delivered or given up. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Stops retrying; alerts still queued are dropped. */
  close(): void {
    this.closed = true;
    this.queue.length = 0;
    this.wake?.();
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0 && !this.closed) {
      const alert = this.queue[0] as Alert;
      for (let attempt = 1; !this.closed; attempt++) {
        const error = await this.post(alert);
        if (error === null || this.closed) break;
        if (attempt >= this.options.maxAttempts) {
          this.options.onError(
            `webhook gave up on ${alert.event} ${alert.key} after ${attempt} attempts: ${error}`,
          );
          break;
        }
        const delay = Math.min(this.options.maxDelayMs, this.options.baseDelayMs * 2 ** (attempt - 1));
        this.options.onError(`webhook attempt ${attempt} failed (${error}); retrying in ${delay} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, delay);
          // A pending retry must not keep the process alive on its own.
          timer.unref();
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wake = null;
      }
      if (this.queue[0] === alert) this.queue.shift();
    }
  }

  private async post(alert: Alert): Promise<string | null> {
    try {
      const response = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(alert),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      await response.body?.cancel();
      return response.ok ? null : `HTTP ${response.status}`;
    } catch (error) {
      return (error as Error).message;
    }
  }
}
