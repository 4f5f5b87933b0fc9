import { createHash, type Hash } from 'node:crypto';

/** `report.run` (docs/formats.md): which run wrote a set of outputs. */
export interface ReportRun {
  /** A digest of what the run read: the same input gives the same id, so rebuilt reports stay byte-identical. */
  id: string;
  /** ISO time the org data was read (the snapshot's recording time, or the live run's start). */
  dataReadAt?: string;
}

/**
 * `report.run`, built here only. `read` is every document the run read (the org, the teams map,
 * the baseline, the previous report, what the repositories gave), in a fixed order.
 */
export function reportRun(read: readonly unknown[], dataReadAt?: string): ReportRun {
  const hash = createHash('sha256');
  const feed = hashRuns(hash);
  for (const document of read) {
    canonicalInto(feed, document);
    feed('\n');
  }
  feed.flush();
  return { id: hash.digest('hex').slice(0, 16), ...(dataReadAt !== undefined && { dataReadAt }) };
}

/** Text fed to the hash in runs: one hash update per small piece costs more than the hashing itself. */
function hashRuns(hash: Hash): ((text: string) => void) & { flush(): void } {
  let pending = '';
  const feed = (text: string) => {
    pending += text;
    if (pending.length >= FLUSH_CHARS) {
      hash.update(pending);
      pending = '';
    }
  };
  return Object.assign(feed, { flush: () => hash.update(pending) });
}

/** Above this many items a list or record is written piece by piece rather than copied whole. */
const COPIED_ITEMS = 256;

/**
 * The document's canonical JSON (keys sorted) fed to the hash: a live read and its recording hold
 * the same data in another key order. The top levels (the snapshot, its entity map, each
 * blueprint's entities), any large list and whatever sortedCopy cannot copy are written token by
 * token, and each value below them as JSON.stringify over a key-sorted copy: the same text as one
 * copy of the whole document, without that copy (an org of a million entities would hold a second
 * one at once). Iterative: input nesting is unbounded.
 */
function canonicalInto(feed: (text: string) => void, document: unknown): void {
  const stack: [item: unknown, depth: number][] = [[document, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item instanceof Structure) {
      feed(item.text);
      continue;
    }
    const keys = item !== null && typeof item === 'object' && !Array.isArray(item) ? Object.keys(item) : undefined;
    let below = depth + 1;
    if (depth >= 3 && depth < MAX_COPIED_DEPTH && (keys?.length ?? (Array.isArray(item) ? item.length : 0)) <= COPIED_ITEMS) {
      // Native JSON.stringify over a key-sorted copy is several times faster than writing it out token by token.
      const sorted = sortedCopy(item, depth);
      if (sorted !== NOT_COPIED) {
        feed(JSON.stringify(sorted ?? null));
        continue;
      }
      // Token by token from here down: a copy of each part would walk again what this one walked.
      below = MAX_COPIED_DEPTH;
    }
    if (Array.isArray(item)) {
      feed('[');
      stack.push([new Structure(']'), depth]);
      for (let index = item.length - 1; index >= 0; index--) stack.push([item[index], below], [new Structure(','), depth]);
      if (item.length > 0) stack.pop();
    } else if (keys !== undefined) {
      feed('{');
      stack.push([new Structure('}'), depth]);
      const present = keys.filter((key) => (item as Record<string, unknown>)[key] !== undefined).sort().reverse();
      present.forEach((key, index) => {
        stack.push([(item as Record<string, unknown>)[key], below], [new Structure(`${index === present.length - 1 ? '' : ','}${JSON.stringify(key)}:`), depth]);
      });
    } else {
      feed(JSON.stringify(item ?? null));
    }
  }
}

/** What sortedCopy gives for a document JSON.stringify would not write as canonicalInto does. */
const NOT_COPIED = Symbol('not copied');

/** Ours: far below the nesting at which JSON.stringify (or this copy) runs out of stack, far above any org's. */
const MAX_COPIED_DEPTH = 1000;

/**
 * The document with every object's keys in sorted order (undefined values left out), which
 * JSON.stringify then writes as canonicalInto would token by token; NOT_COPIED where it would not: a key that
 * may be an array index (objects list those first, whatever the insertion order) or `__proto__`,
 * a value JSON does not hold (a function, a symbol, a bigint), nesting deeper than MAX_COPIED_DEPTH.
 */
function sortedCopy(value: unknown, depth = 0): unknown {
  if (typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') return NOT_COPIED;
  if (value === null || typeof value !== 'object') return value;
  if (depth === MAX_COPIED_DEPTH) return NOT_COPIED;
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    for (let index = 0; index < value.length; index++) {
      const item = sortedCopy(value[index], depth + 1);
      if (item === NOT_COPIED) return NOT_COPIED;
      copy.push(item);
    }
    return copy;
  }
  const record = value as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(record).sort()) {
    const first = key.charCodeAt(0);
    if ((first >= 0x30 && first <= 0x39) || key === '__proto__') return NOT_COPIED;
    if (record[key] === undefined) continue;
    const item = sortedCopy(record[key], depth + 1);
    if (item === NOT_COPIED) return NOT_COPIED;
    copy[key] = item;
  }
  return copy;
}

/** Ours: characters gathered before each hash update. */
const FLUSH_CHARS = 64 * 1024;

/** Brackets, commas and keys queued on the stack between the values. */
class Structure {
  constructor(readonly text: string) {}
}
