import type { UserRecord } from './access.js';
import type { JsonObject } from './json.js';

/**
 * The org snapshot (`org-snapshot/1`, described for users in docs/formats.md). Each key holds the payload
 * of one read endpoint; `null` anywhere means absent, as in the service's own payloads. Resource records are kept loose (JsonObject) because the service's
 * records carry many more fields than we read; rules navigate them defensively.
 */
export const SNAPSHOT_FORMAT = 'org-snapshot/1';

/** The system blueprint that holds teams once users and teams are blueprints. */
export const TEAM_BLUEPRINT = '_team';
/** The system blueprint that holds users; its relations to _team are memberships. */
export const USER_BLUEPRINT = '_user';

export interface Organization extends JsonObject {
  id: string;
  name: string;
}

export interface TeamRecord extends JsonObject {
  name: string;
}

export interface EntityRecord extends JsonObject {
  identifier: string;
}

export interface IncompleteEntry {
  resource: string;
  reason: string;
}

export interface OrgSnapshot {
  format: typeof SNAPSHOT_FORMAT;
  organization: Organization;
  blueprints: JsonObject[];
  blueprintPermissions?: Record<string, JsonObject | null> | null;
  actions?: JsonObject[] | null;
  actionPermissions?: Record<string, JsonObject | null> | null;
  pages?: JsonObject[] | null;
  pagePermissions?: Record<string, JsonObject | null> | null;
  integrations?: JsonObject[] | null;
  webhooks?: JsonObject[] | null;
  teams?: TeamRecord[] | null;
  entities?: Record<string, EntityRecord[] | null> | null;
  scorecards?: JsonObject[] | null;
  /** docs/formats.md, the org snapshot: each user's email, teams and roles, nothing else of them. */
  users?: UserRecord[] | null;
  incomplete?: IncompleteEntry[] | null;
  /**
   * Issue 25: the migration state the live fetch read from the organization's `featureFlags`
   * (`{migrated, source: "feature-flag"}`), so analysis never guesses it from shapes. Issue 30: a
   * repository's files give it too (`source: "repository"`), with the facts it was read from.
   */
  migrationState?: { migrated: boolean; source: string; evidence?: { file: string; line: number; fact: string }[] } | null;
  /**
   * Issue 25: blueprint → the data migrations (`GET /v1/migrations?blueprint=X&status=COMPLETED`)
   * that completed for it; read after the migration for blueprints that keep teams in a relation.
   */
  migrations?: Record<string, JsonObject[]> | null;
  /** Issue 25: what the live fetch met of the service's newer behaviour (src/sources/live-service-record.ts). */
  liveService?: JsonObject | null;
  /** Unknown extra fields are kept, never rejected. */
  [extra: string]: unknown;
}

/**
 * An org snapshot with every list and map present and empty, for a catalog built from files.
 * `teams: []` says the org has no teams besides those added; without it, its teams are unknown.
 */
export function emptySnapshot(organization: OrgSnapshot['organization'], options: { teams?: true } = {}): OrgSnapshot {
  return {
    format: SNAPSHOT_FORMAT,
    organization,
    blueprints: [],
    actions: [],
    pages: [],
    integrations: [],
    webhooks: [],
    scorecards: [],
    blueprintPermissions: {},
    actionPermissions: {},
    pagePermissions: {},
    ...(options.teams && { teams: [] }),
    entities: {},
  };
}
