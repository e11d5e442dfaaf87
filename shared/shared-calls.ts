/**
 * Concurrent callers asking for the same key share one call: a burst of requests that all miss a
 * cache queues one store query, not one per request, which a bounded pool would refuse. The call
 * is forgotten once it settles, so the next caller after that asks afresh.
 */
export class SharedCalls<T> {
  private readonly calls = new Map<string, Promise<T>>();

  run(key: string, call: () => Promise<T>): Promise<T> {
    const running = this.calls.get(key);
    if (running !== undefined) return running;
    const started = call().finally(() => {
      if (this.calls.get(key) === started) this.calls.delete(key);
    });
    this.calls.set(key, started);
    return started;
  }

  /** Later callers start afresh; callers already waiting keep their answer. */
  clear(): void {
    this.calls.clear();
  }
}
