import { createHash } from 'node:crypto';

/** contracts.md §3.4 `report.run`: which run wrote a set of outputs. */
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
  for (const document of read) hash.update(JSON.stringify(document ?? null) ?? 'null').update('\n');
  return { id: hash.digest('hex').slice(0, 16), ...(dataReadAt !== undefined && { dataReadAt }) };
}
