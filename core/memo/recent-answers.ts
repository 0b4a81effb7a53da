/**
 * Answers this isolate worked out or read lately, each kept for `keepMs` at most and `max` at once: a hot path
 * (a device batch, a page's host) asks the same question many times a second. When `max` are held they are all
 * dropped at once, which is cheaper than tracking use and costs one fresh read per key. The caller passes the
 * time, so the class stays pure and a test can move the clock.
 */
export class RecentAnswers<T> {
  private readonly entries = new Map<string, { at: number; value: T }>();

  /** `keepMs` Infinity: an answer that cannot go stale (a pure function's), kept until the bound drops it. */
  constructor(
    private readonly keepMs: number,
    private readonly max: number,
  ) {}

  /** The answer kept for `key` if it is younger than `keepMs` at `now`. */
  get(key: string, now = 0): T | undefined {
    const kept = this.entries.get(key);
    return kept !== undefined && now - kept.at < this.keepMs ? kept.value : undefined;
  }

  set(key: string, value: T, now = 0): void {
    if (this.entries.size >= this.max && !this.entries.has(key)) this.entries.clear();
    this.entries.set(key, { at: now, value });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Forgets every answer `stale` picks (a change that touches answers under several keys). */
  deleteWhere(stale: (value: T) => boolean): void {
    for (const [key, kept] of this.entries) if (stale(kept.value)) this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}
