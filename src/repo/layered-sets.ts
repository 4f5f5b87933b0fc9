/**
 * Per-blueprint facts (removed relations, `$team` mirrors) of the org with a file's own over them,
 * read through rather than copied: each of a repository's files that adds some got a copy of the
 * whole repository's map, a cost growing with files × blueprints (issue 41). A key both hold reads
 * as the union, the org's values first, made on first read; iteration gives what a copy would: the
 * org's keys in their order, then the file's new ones. Rules only read these maps.
 */
export class LayeredSets implements ReadonlyMap<string, ReadonlySet<string>> {
  private readonly merged = new Map<string, ReadonlySet<string>>();

  constructor(
    private readonly under: ReadonlyMap<string, ReadonlySet<string>>,
    private readonly over: ReadonlyMap<string, ReadonlySet<string>>,
  ) {}

  get size(): number {
    let size = this.under.size;
    for (const key of this.over.keys()) if (!this.under.has(key)) size++;
    return size;
  }

  has(key: string): boolean {
    return this.over.has(key) || this.under.has(key);
  }

  get(key: string): ReadonlySet<string> | undefined {
    const own = this.over.get(key);
    if (own === undefined) return this.under.get(key);
    let merged = this.merged.get(key);
    if (merged === undefined) this.merged.set(key, (merged = new Set([...(this.under.get(key) ?? []), ...own])));
    return merged;
  }

  *keys(): MapIterator<string> {
    yield* this.under.keys();
    for (const key of this.over.keys()) if (!this.under.has(key)) yield key;
  }

  *values(): MapIterator<ReadonlySet<string>> {
    for (const key of this.keys()) yield this.get(key)!;
  }

  *entries(): MapIterator<[string, ReadonlySet<string>]> {
    for (const key of this.keys()) yield [key, this.get(key)!];
  }

  [Symbol.iterator](): MapIterator<[string, ReadonlySet<string>]> {
    return this.entries();
  }

  forEach(callback: (value: ReadonlySet<string>, key: string, map: ReadonlyMap<string, ReadonlySet<string>>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.entries()) callback.call(thisArg, value, key, this);
  }
}
