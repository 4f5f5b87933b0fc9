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
  for (const document of read) {
    // Native JSON.stringify over a key-sorted copy is several times faster than writing it out token by token.
    const sorted = sortedCopy(document);
    if (sorted === NOT_COPIED) hashCanonical(hash, document);
    else hash.update(`${JSON.stringify(sorted ?? null)}\n`);
  }
  return { id: hash.digest('hex').slice(0, 16), ...(dataReadAt !== undefined && { dataReadAt }) };
}

/** What sortedCopy gives for a document JSON.stringify would not write as hashCanonical does. */
const NOT_COPIED = Symbol('not copied');

/** Ours: far below the nesting at which JSON.stringify (or this copy) runs out of stack, far above any org's. */
const MAX_COPIED_DEPTH = 1000;

/**
 * The document with every object's keys in sorted order (undefined values left out), which
 * JSON.stringify then writes as hashCanonical would; NOT_COPIED where it would not: a key that
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

/**
 * The document's JSON with object keys sorted, fed to the hash piece by piece: a live read and its
 * recording hold the same data in another key order. Iterative: input nesting is unbounded.
 */
function hashCanonical(hash: Hash, document: unknown): void {
  // The pieces are fed in runs: one hash update per token costs more than the hashing itself on a big org.
  let pending = '';
  const update = (text: string) => {
    pending += text;
    if (pending.length >= FLUSH_CHARS) {
      hash.update(pending);
      pending = '';
    }
  };
  const stack: unknown[] = [document];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item instanceof Structure) {
      update(item.text);
    } else if (Array.isArray(item)) {
      update('[');
      stack.push(new Structure(']'));
      for (let index = item.length - 1; index >= 0; index--) stack.push(item[index], new Structure(','));
      if (item.length > 0) stack.pop();
    } else if (item !== null && typeof item === 'object') {
      update('{');
      stack.push(new Structure('}'));
      const keys = Object.keys(item).filter((key) => (item as Record<string, unknown>)[key] !== undefined).sort().reverse();
      keys.forEach((key, index) => {
        stack.push((item as Record<string, unknown>)[key], new Structure(`${index === keys.length - 1 ? '' : ','}${JSON.stringify(key)}:`));
      });
    } else {
      update(JSON.stringify(item ?? null));
    }
  }
  update('\n');
  hash.update(pending);
}

/** Ours: characters gathered before each hash update. */
const FLUSH_CHARS = 64 * 1024;

/** Brackets, commas and keys queued on the stack between the values. */
class Structure {
  constructor(readonly text: string) {}
}
