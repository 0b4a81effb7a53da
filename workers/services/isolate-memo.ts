/**
 * A copy kept in this isolate's memory of something D1 or a race room holds, under a key that names its
 * sources (a digest of their versions), so a stale copy is never read: a changed source gives a new key.
 * Nothing is kept only here; an isolate that starts empty, or drops an entry, reads the source again.
 * Bounded by weight (entries or cells), least recently used first out, so it cannot grow past its share of
 * the isolate's 128 MB (decision 0080).
 */
export class IsolateMemo<T> {
  private readonly entries = new Map<string, { value: T; weight: number }>();
  private readonly building = new Map<string, Promise<T>>();
  private total = 0;

  constructor(
    private readonly capacity: number,
    private readonly weigh: (value: T) => number,
  ) {}

  get(key: string): T | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    // Re-inserted, so the Map's order is least recently used first.
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit.value;
  }

  /**
   * The value under `key`, built by `build` when this isolate has none: a crowd arriving together shares one
   * build instead of each reading the source, and a build that fails keeps nothing, so the next caller tries
   * again. Callers must not change what it gives.
   */
  through(key: string, build: () => Promise<T>): Promise<T> {
    const hit = this.get(key);
    if (hit !== undefined) return Promise.resolve(hit);
    const running = this.building.get(key);
    if (running) return running;
    const started = build()
      .then((value) => {
        this.set(key, value);
        return value;
      })
      .finally(() => this.building.delete(key));
    this.building.set(key, started);
    return started;
  }

  set(key: string, value: T): void {
    const weight = this.weigh(value);
    this.delete(key);
    // Too heavy to keep at all: kept out rather than emptying the memo for it.
    if (weight > this.capacity) return;
    this.entries.set(key, { value, weight });
    this.total += weight;
    for (const [oldest, entry] of this.entries) {
      if (this.total <= this.capacity) break;
      this.entries.delete(oldest);
      this.total -= entry.weight;
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.total -= entry.weight;
  }

  clear(): void {
    this.entries.clear();
    this.total = 0;
  }

  /** The summed weight held now (for tests). */
  get weight(): number {
    return this.total;
  }
}
