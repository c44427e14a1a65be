// Requests in flight, as the app's first middleware counts them. Background work in the same
// process (the servers' drain) waits for a quiet moment before each provider call, so a burst
// of requests is not queued behind an embedding batch or a summary.

export class RequestActivity {
  private inFlight = 0;
  private lastEnd = Number.NEGATIVE_INFINITY;

  begin(): void {
    this.inFlight++;
  }

  end(): void {
    this.inFlight--;
    this.lastEnd = performance.now();
  }

  /** No request in flight, and none ended within the last `ms`. */
  quietFor(ms: number): boolean {
    return this.inFlight === 0 && performance.now() - this.lastEnd >= ms;
  }
}
