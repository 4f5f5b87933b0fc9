import { quotedSome } from './location.js';
import { isObject } from '../model/json.js';
import type { JsonObject } from '../model/json.js';
import type { Organization } from '../model/snapshot.js';
import { deadInheritance, teamInheritancePath } from './inheritance.js';

/**
 * The feature flag the service sets once an org has migrated; the Terraform provider reads it as
 * "the org has migrated" (docs/live-service.md; the provider's `internal/cli/team.go`).
 */
export const MIGRATED_FEATURE_FLAG = 'USERS_AND_TEAMS_OWNERSHIP_V2';

/** Where the org-level answer came from, strongest first; `repository`: read from a repository's files (src/repo/repository-catalog.ts). */
export type MigrationStateSource = 'feature-flag' | 'recorded' | 'repository' | 'shapes';

export interface MigrationState {
  /** The migration has run on the org (the permission rewrite and every blueprint's ownership). */
  ran: boolean;
  source: MigrationStateSource;
  /**
   * Blueprints judged as migrated in an org that has not (or is not known to have) migrated:
   * those that already hold `ownership`, set by hand, Terraform or an earlier beta. Each is
   * judged by its own shape, the rest by the org's state.
   */
  migratedBlueprints: ReadonlySet<string>;
  /** Disagreements between the state and the shapes, and how the state was found, for report.notes. */
  notes: readonly string[];
}

/**
 * The org's migration state: the `featureFlags` of the organization first, then a `migrationState`
 * the snapshot recorded, and only without either the blueprints' shapes (one of the org's own
 * blueprints with `ownership`: the migration sets it; docs/categories.md). Shapes that disagree with a flag
 * are a note, never the answer: an org keeps legacy leftovers after the migration, and sets
 * `ownership` by hand before it.
 */
export function readMigrationState(
  organization: Organization,
  recorded: unknown,
  blueprints: ReadonlyMap<string, JsonObject>,
): MigrationState {
  const shapes = shapesOf(blueprints);
  const flag = featureFlagState(organization);
  const record = recordedState(recorded);
  const known = flag !== undefined ? { ran: flag, source: 'feature-flag' as const } : record !== undefined ? { ran: record.migrated, source: record.source } : undefined;
  const notes: string[] = [];

  if (!known) {
    // Today's reading, kept for snapshots recorded before the flag was read. Said only where it is
    // in doubt (a mix of both shapes), so a clean older snapshot reads as before.
    const ran = shapes.withOwnership.length > 0;
    if (ran && shapes.withInheritance.length > 0) {
      notes.push(
        `migration state: the organization record has no featureFlags, so it is read from the blueprints' shapes: migrated, as ${listOf(shapes.withOwnership)} ${shapes.withOwnership.length > 1 ? 'have' : 'has'} ownership, although ${listOf(shapes.withInheritance)} still ${shapes.withInheritance.length > 1 ? 'have' : 'has'} teamInheritance; if the migration has not run, what is reported as left undone is what it will do (read the org again, live or with teams-migration-audit snapshot, to get the service's flag)`,
      );
    }
    return { ran, source: 'shapes', migratedBlueprints: new Set(), notes: ran ? [...notes, ...deadInheritanceNotes(blueprints)] : notes };
  }

  const said = known.source === 'feature-flag' ? `the feature flag ${MIGRATED_FEATURE_FLAG}` : known.source === 'repository' ? "the repository's files" : "the snapshot's recorded migrationState";
  if (known.ran) {
    const leftovers = [
      ...(shapes.withInheritance.length > 0 ? [`${listOf(shapes.withInheritance)} still ${shapes.withInheritance.length > 1 ? 'have' : 'has'} teamInheritance`] : []),
      ...(shapes.withOwnership.length === 0 && shapes.own > 0 ? ['no blueprint of its own has ownership'] : []),
    ];
    if (leftovers.length > 0) {
      notes.push(`migration state: ${said} says the org has migrated, but ${leftovers.join(' and ')}; read as migrated, and what the migration left is reported as undone`);
    }
    return { ran: true, source: known.source, migratedBlueprints: new Set(), notes: [...notes, ...deadInheritanceNotes(blueprints)] };
  }
  if (shapes.withOwnership.length > 0) {
    notes.push(
      `migration state: ${said} says the org has not migrated, but ${listOf(shapes.withOwnership)} already ${shapes.withOwnership.length > 1 ? 'have' : 'has'} ownership; ${shapes.withOwnership.length > 1 ? 'those are' : 'that one is'} judged as migrated, the rest of the org as not`,
    );
  }
  return { ran: false, source: known.source, migratedBlueprints: new Set(shapes.withOwnership), notes };
}

/**
 * `featureFlags` as the service sends it: a list of flag names. A map of name → boolean is read
 * too. Undefined when the organization carries no flags at all (an older snapshot, a trimmed record).
 */
export function featureFlagState(organization: Organization): boolean | undefined {
  const flags = organization.featureFlags;
  if (Array.isArray(flags)) return flags.includes(MIGRATED_FEATURE_FLAG);
  if (isObject(flags)) return flags[MIGRATED_FEATURE_FLAG] === true;
  return undefined;
}

function recordedState(recorded: unknown): { migrated: boolean; source: 'recorded' | 'repository' } | undefined {
  if (!isObject(recorded) || typeof recorded.migrated !== 'boolean') return undefined;
  return { migrated: recorded.migrated, source: recorded.source === 'repository' ? 'repository' : 'recorded' };
}

/** The org's own blueprints (not the `_` system ones) with `ownership`, and every one with a teamInheritance path. */
function shapesOf(blueprints: ReadonlyMap<string, JsonObject>) {
  const withOwnership: string[] = [];
  const withInheritance: string[] = [];
  let own = 0;
  for (const [id, blueprint] of blueprints) {
    if (id.startsWith('_')) continue;
    own++;
    if (isObject(blueprint.ownership)) withOwnership.push(id);
    if (teamInheritancePath(blueprint) !== undefined) withInheritance.push(id);
  }
  return { own, withOwnership: withOwnership.sort(), withInheritance: withInheritance.sort() };
}

/** Issue 39: blueprints that keep teamInheritance beside the ownership that replaced it, which the service ignores. */
function deadInheritanceNotes(blueprints: ReadonlyMap<string, JsonObject>): string[] {
  return [...blueprints].flatMap(([id, blueprint]) => {
    const path = deadInheritance(blueprint);
    return path === undefined
      ? []
      : [`dead configuration: blueprint ${JSON.stringify(id)} keeps teamInheritance over ${JSON.stringify(path)} beside ownership ${JSON.stringify(blueprint.ownership)}; the service ignores it, so it is nothing to migrate (remove it when convenient)`];
  });
}

/** Up to five blueprints, quoted, then a count. */
function listOf(ids: readonly string[]): string {
  return `${ids.length > 1 ? 'blueprints' : 'blueprint'} ${quotedSome(ids, 5)}`;
}

/** Ownership as the migration sets it (docs/categories.md, ownership-direct and ownership-inherited). */
export type PlannedOwnership = { type: 'Direct' } | { type: 'Inherited'; path: string };

/**
 * What the migration was to do, as a report from before it said (`--since`): once it has run,
 * `teamInheritance` is gone from the org, so only this record tells which path a blueprint
 * should inherit over, or which relation to `_team` should have been removed.
 */
export interface MigrationPlan {
  /** Blueprint → the ownership it should have (from ownership-direct and ownership-inherited findings). */
  ownership: ReadonlyMap<string, PlannedOwnership>;
  /** Blueprint → the relation to `_team` the migration should have removed, setting Direct ownership. */
  removedRelations: ReadonlyMap<string, string>;
}
