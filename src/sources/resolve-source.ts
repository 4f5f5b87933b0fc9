import { setTimeout as delay } from 'node:timers/promises';
import { Option, type Command } from 'commander';
import { addressesOf, type Addresses } from '../address-options.js';
import { ApiAuthError, ApiUnreachableError, createApiClient } from '../api/client.js';
import { credentialSource, resolveConnection, type Connection, type ConnectionFlags } from '../api/connection.js';
import { createFetchTransport, type Transport } from '../api/transport.js';
import { UsageError } from '../errors.js';
import type { OrgSnapshot } from '../model/snapshot.js';
import { ApiAccessError, fetchLiveSnapshot } from './live.js';
import { skippedPermissionNotes } from './permission-plan.js';
import { createProgress } from './progress.js';
import { redactSnapshot } from './redact.js';
import { loadSnapshotFile } from './snapshot-file.js';
import { checkSnapshot } from './validate-snapshot.js';
import { plural } from '../plural.js';
import { credentialRedactor } from '../secrets/credentials.js';

export interface SourceFlags extends ConnectionFlags {
  snapshot?: string;
  concurrency: string;
  quiet?: boolean;
  /** Stop at the first value of an unexpected shape (exit 2) instead of noting it. */
  strict?: boolean;
  /** One org of `analyze --orgs FILE` (src/orgs/org-config.ts): read it instead of the flags' and variables' org. Never a flag. */
  configuredOrg?: { name: string; connection: Connection };
}

/** What a source touches outside itself (the CLI's io has these too): `sleep` and `transport` exist for tests. */
export interface SourceIo {
  stderr: (text: string) => void;
  env: Readonly<Record<string, string | undefined>>;
  /** The wall clock, read only through this and passed to renderers as data. */
  now: () => Date;
  /** Whether stderr is a terminal (a progress bar) or not (one line per phase). */
  isTTY?: boolean;
  /** Rate-limit and retry waits; tests inject one that advances a fake clock. */
  sleep?: (ms: number) => Promise<void>;
  /** The network seam; tests inject one with a short request deadline. */
  transport?: Transport;
  /** Told the secrets the org's redaction found, so stderr never shows them either (a one-line error, a note). */
  secretsFound?: (values: readonly string[]) => void;
}

interface ResolvedSource {
  snapshot: OrgSnapshot;
  /** For the report header: "snapshot org.json" or "live org at https://…". */
  description: string;
  /** Values of an unexpected shape, one line each with its path (report.notes); `snapshot` keeps them as read. */
  notes: string[];
  /**
   * The credentials the live read used, and every secret value the org's redaction cut, so no report,
   * fix kit or snapshot can repeat them, whatever quotes them (secrets/credentials.ts).
   */
  credentials?: string[];
  /**
   * What the run id digests for the org, when not the snapshot itself: a file's bytes' SHA-256,
   * taken as it was read (issue 41: the canonical JSON of a million entities took seconds to hash).
   */
  read?: { snapshotSha256: string };
}

/**
 * Requests in flight are bounded (docs/live-service.md, rate limits). This is the cap: the client starts there, halves on a
 * burst of 5xx and grows back while latency allows; the rate-limit budget paces it (src/api/adaptive-concurrency.ts).
 */
export const DEFAULT_CONCURRENCY = 32;
/** Ours: beyond this the rate limit, not latency, is the bottleneck. */
const MAX_CONCURRENCY = 32;

export const NO_SOURCE_HINT =
  'no org to analyze: pass --snapshot FILE (an org-snapshot/1 file) or --repo DIR, or reach the live API with ' +
  'PORT_TOKEN, or PORT_CLIENT_ID and PORT_CLIENT_SECRET, or --config FILE (the reference script\'s config.json); ' +
  'try the bundled demo: `teams-migration-audit analyze --demo`';

/** The source options shared by `analyze` and `snapshot`, `--strict` with what it means for the command. */
export function addSourceOptions(command: Command, strictHelp = 'stop (exit 2) at the first value of an unexpected shape instead of noting it in the report'): Command {
  return command
    .option('--api-url <url>', 'base URL of the API (overrides --region): https, or http only to this machine (127.0.0.0/8, ::1, localhost)')
    .addOption(new Option('--region <region>', 'the org\'s region (default: eu)').choices(['eu', 'us']))
    .option('--config <file>', 'the reference script\'s config.json ({REGION, CLIENT_ID, CLIENT_SECRET})')
    .option('--concurrency <n>', 'the most requests in flight at once (fewer after a burst of server errors, paced by the rate limit); also caps the jq workers (one per core)', String(DEFAULT_CONCURRENCY))
    .option('--strict', strictHelp);
}

export function parseConcurrency(raw: string): number {
  // Digits only: Number() would also take "1e1", "0x4", " 4" or "".
  const value = /^[0-9]+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(value) || value < 1 || value > MAX_CONCURRENCY) {
    throw new UsageError(`--concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}, got "${raw}"`);
  }
  return value;
}

/** Who an API token belongs to decides what it reads: the audit reads the data model, its permissions and the users. */
const ROLE_HINT =
  'the audit needs the credentials of a user with the Admin role (an API token, or the client id and secret, from an admin\'s Credentials menu in the app)';

/**
 * The failures of a live read that the user fixes, each with where to look: the URL (unreachable),
 * the token and its region (401), the token's role (nothing readable). Anything else as it came.
 */
function withWhereToLook(error: unknown, connection: Connection, addresses: Addresses): unknown {
  const origin = connection.baseUrl.origin;
  if (error instanceof ApiUnreachableError) {
    const check = addresses.apiUrl !== undefined ? `check ${addresses.names.apiUrl}` : `check ${addresses.names.region} and the network`;
    return new ApiUnreachableError(`cannot read the catalog API at ${origin}: ${error.message} (${check})`, error.status, { cause: error });
  }
  if (error instanceof ApiAccessError) {
    return new ApiAccessError(error.refused, `${credentialSource(connection.credentials)} can read nothing at ${origin}: ${error.message}; ${ROLE_HINT}`, { cause: error });
  }
  if (error instanceof ApiAuthError && error.status === 401) {
    return new ApiAuthError(
      `${error.message} at ${origin}: check that they are still valid and belong to an org in this region (--region eu or us, or --api-url); ` +
        "new ones are made in the app's Credentials menu",
      401,
      { cause: error },
    );
  }
  return error;
}

/** A snapshot file when --snapshot is given, else the live API when credentials are set, else undefined (NO_SOURCE_HINT says why). */
export async function resolveOrgSource(flags: SourceFlags, io: SourceIo): Promise<ResolvedSource | undefined> {
  // Checked whatever the source: a bad flag is a usage error even where it would not be used.
  const concurrency = parseConcurrency(flags.concurrency);
  // A file recorded before redaction existed (or by hand) is redacted too: the report quotes records,
  // `snapshot --snapshot` rewrites the file, and a live run and its recording must analyze the same.
  if (flags.snapshot) {
    const { snapshot, notes, sha256, redacted } = await loadSnapshotFile(flags.snapshot, { strict: flags.strict === true, redact: true });
    const redactionNotes: string[] = [];
    const found = new Set<string>();
    const safe = redactSnapshot(snapshot, redactionNotes, redacted, found);
    // The shape check read the file before redaction: its notes may quote a secret (a URL's password, a header's value).
    const secrets = learnSecrets(found, io);
    return { snapshot: safe, description: `snapshot ${flags.snapshot}`, notes: [...withoutSecrets(notes, secrets), ...redactionNotes], ...(secrets.length > 0 && { credentials: secrets }), read: { snapshotSha256: sha256 } };
  }
  const connection = flags.configuredOrg?.connection ?? (await resolveConnection(flags, io.env));
  if (!connection) return undefined;

  const now = () => io.now().getTime();
  const progress = createProgress({ write: io.stderr, isTTY: io.isTTY === true, quiet: flags.quiet === true, now });
  const client = createApiClient({
    baseUrl: connection.baseUrl,
    credentials: connection.credentials,
    transport: io.transport ?? createFetchTransport(),
    now,
    sleep: io.sleep ?? ((ms) => delay(ms)),
    concurrency,
    onEvent: progress.onClient,
  });
  const started = now();
  let snapshot: OrgSnapshot;
  const redactionNotes: string[] = [];
  const found = new Set<string>();
  try {
    snapshot = await fetchLiveSnapshot(client, progress.onFetch, redactionNotes, found);
  } catch (error) {
    progress.abort();
    throw withWhereToLook(error, connection, addressesOf(flags, io.env));
  }
  const stats = client.stats();
  const waits = stats.rateLimitWaits > 0 ? `, ${Math.ceil(stats.rateLimitBlockedMs / 1_000)} s held by the rate limit` : '';
  progress.finish(`fetched ${connection.baseUrl.origin} in ${((now() - started) / 1_000).toFixed(1)} s: ${plural(stats.requests, 'request')}, ${stats.retries} retr${stats.retries === 1 ? 'y' : 'ies'}${waits}`);
  // The same check as a recorded file gets, so a live run and its recording note the same values.
  const description = `live org ${flags.configuredOrg ? `"${flags.configuredOrg.name}" ` : ''}at ${connection.baseUrl.origin}`;
  const secrets = learnSecrets(found, io);
  const { notes } = checkSnapshot(snapshot, description, { strict: flags.strict === true });
  const credentials = connection.credentials.kind === 'token' ? [connection.credentials.token] : [connection.credentials.clientId, connection.credentials.clientSecret];
  return { snapshot, description, notes: [...withoutSecrets(notes, secrets), ...redactionNotes, ...skippedPermissionNotes(snapshot)], credentials: [...credentials, ...secrets] };
}

/** The secrets the org's redaction found, told to stderr's writer before anything more is said. */
function learnSecrets(found: ReadonlySet<string>, io: SourceIo): string[] {
  const secrets = [...found];
  if (secrets.length > 0) io.secretsFound?.(secrets);
  return secrets;
}

/** `notes` with every secret cut, in every form and echoed part the run's credentials are cut in. */
function withoutSecrets(notes: readonly string[], secrets: readonly string[]): string[] {
  if (secrets.length === 0) return [...notes];
  const clean = credentialRedactor(secrets);
  return notes.map(clean);
}
