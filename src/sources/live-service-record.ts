import type { ApiStats } from '../api/client.js';
import type { JsonObject } from '../model/json.js';

/**
 * Issue 25: what a live fetch met of the service as it answers today, beside what its public docs say,
 * kept in the snapshot (`liveService`) so a later analysis, and whoever reads the file, knows
 * which of these the org's answers used. Counts, never values: nothing here can hold a secret.
 */
export function liveServiceRecord(stats: ApiStats, read: { featureFlags: boolean; migrationsRead: number }): JsonObject {
  return {
    featureFlags: read.featureFlags,
    rateLimitReset: { seconds: stats.seen.resetSeconds, epoch: stats.seen.resetEpoch },
    retryAfter: stats.seen.retryAfter,
    rateLimitCapped: stats.seen.capped,
    migrationsRead: read.migrationsRead,
  };
}
