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
  for (const document of read) hashCanonical(hash, document);
  return { id: hash.digest('hex').slice(0, 16), ...(dataReadAt !== undefined && { dataReadAt }) };
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
