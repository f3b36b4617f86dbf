/**
 * Sliding-window counters kept in memory, outside the event store (they are not facts about the
 * business). One command-api instance holds them; several would each count on their own, which
 * only makes the limit looser by the number of instances.
 */
export class SlidingWindowCounter {
  private readonly hits = new Map<string, number[]>();
  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  private recent(key: string): number[] {
    const since = this.clock() - this.windowMs;
    const list = (this.hits.get(key) ?? []).filter((t) => t > since);
    if (list.length === 0) this.hits.delete(key);
    else this.hits.set(key, list);
    return list;
  }

  isBlocked(key: string): boolean {
    return this.recent(key).length >= this.limit;
  }

  record(key: string): void {
    this.hits.set(key, [...this.recent(key), this.clock()]);
    if (this.hits.size > 100_000) this.hits.delete(this.hits.keys().next().value as string);
  }

  reset(key: string): void {
    this.hits.delete(key);
  }
}
