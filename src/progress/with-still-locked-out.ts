import { stillLockedOut } from '../access/compute-access.js';
import type { Catalog } from '../catalog/catalog.js';
import type { Report } from '../model/finding.js';
import type { PreviousReport } from './read-previous-report.js';

/**
 * Issue 14 item 4: after the migration, `--since` says who is still locked out. Only when the
 * migration has run, the previous report named who would lose access and this org lists its
 * users; otherwise nothing could be said, so nothing is.
 */
export function withStillLockedOut<T extends Report>(report: T, previous: PreviousReport | undefined, catalog: Catalog): T {
  const users = catalog.snapshot.users;
  // Before the migration has run nobody is locked out yet: the previous report's "loses" still stands as a forecast.
  if (!report.progress || !catalog.migrationRan || !previous?.access || !Array.isArray(users) || users.length === 0) return report;
  return { ...report, progress: { ...report.progress, stillLockedOut: stillLockedOut(previous.access, catalog) } };
}
