import type { Catalog } from '../catalog/catalog.js';
import { buildTeamDirectory, type TeamDirectory } from '../catalog/teams.js';
import { teamInheritancePath } from '../catalog/inheritance.js';
import type { JqEngine } from '../jq/engine.js';
import type { JsonObject } from '../model/json.js';
import type { FileResource } from './file-resources.js';
import { isObject } from '../model/json.js';
import type { OwnershipValue } from './ownership-rewrite.js';
import type { TerraformValues } from './terraform-values.js';
import { workflowTeamInputs, type WorkflowTeamInputs } from './workflow-team-inputs.js';

/** What the org analysis tells the file analyzers. Empty when scanning without an org. */
export interface RepoContext {
  teams: TeamDirectory;
  /** Blueprints the migration gives Direct ownership (no teamInheritance, entities carry `$team`). */
  directOwnership: ReadonlySet<string>;
  /**
   * The ownership each org blueprint holds once migrated (its own, or what the migration gives it):
   * a file's copy without one sends it away on the next apply.
   */
  ownershipAfter?: ReadonlyMap<string, OwnershipValue>;
  /** Relations the migration removes (beta case), of every blueprint; reading them in a file is as broken as in the org. */
  removedRelations: ReadonlySet<string>;
  /** The same, per blueprint, for resources that name theirs. */
  removedByBlueprint?: ReadonlyMap<string, ReadonlySet<string>>;
  /** The org is already migrated (catalog.migrated): pass-through expressions already run on identifiers. */
  migrated?: boolean;
  /** Blueprint → mirror property ids that copy `$team` (catalog.teamMirrors): reading them is reading team values. */
  teamMirrors?: ReadonlyMap<string, ReadonlySet<string>>;
  /** The org's blueprints, for mirror paths of a file that hop through them. */
  orgBlueprints?: ReadonlyMap<string, JsonObject>;
  /** Blueprints written anywhere in the scan (every --repo dir): their facts hold for every file's resources. */
  repositoryBlueprints?: readonly FileResource[];
  /** Per Terraform configuration (directory of the scan): what its `var.x` and `local.x` hold. */
  terraformValues?: ReadonlyMap<string, TerraformValues>;
  /** No org is given and no file of the repository read says whether the org has migrated; `unread`: its files the scan could not read, which might. */
  stateUnknown?: { unread: readonly string[] };
  /** Workflow file name → its inputs that the org's actions dispatching it fill with team values. */
  workflowTeamInputs?: WorkflowTeamInputs;
  /** jq itself, so file expressions are judged by evaluation exactly like the org's. */
  jq?: JqEngine;
  /**
   * Judging only to learn what jq will be asked (judge.ts `judgeReadings`): findings are not
   * kept, so the rules that never ask jq are not run and no finding is placed in its file.
   */
  planning?: true;
  /** How the files' expressions are judged: once per distinct text and context over the scan (src/judge/expression-memo.ts). */
  judgeExpression?: Catalog['judgeExpression'];
}

export function repoContext(catalog: Catalog | undefined): RepoContext {
  if (!catalog) return { teams: buildTeamDirectory([], []), directOwnership: new Set(), removedRelations: new Set() };
  const directOwnership = new Set<string>();
  for (const [id, blueprint] of catalog.blueprints) {
    if (teamInheritancePath(blueprint) !== undefined || blueprint.ownership !== undefined) continue;
    const entities = catalog.entities.get(id) ?? [];
    if (entities.some((entity) => hasTeamValue(entity.team))) directOwnership.add(id);
  }
  const ownershipAfter = new Map<string, OwnershipValue>();
  for (const [id, blueprint] of catalog.blueprints) {
    const own = isObject(blueprint.ownership) ? blueprint.ownership : undefined;
    const path = teamInheritancePath(blueprint);
    if (own && (own.type === 'Direct' || (own.type === 'Inherited' && typeof own.path === 'string'))) {
      ownershipAfter.set(id, own.type === 'Direct' ? { type: 'Direct' } : { type: 'Inherited', path: own.path as string });
    } else if (path !== undefined) {
      // Inheritance over a direct relation to _team (beta) ends as Direct ownership, the relation removed.
      ownershipAfter.set(id, catalog.inheritance.get(id)?.kind === 'team-relation' ? { type: 'Direct' } : { type: 'Inherited', path });
    } else if (directOwnership.has(id)) ownershipAfter.set(id, { type: 'Direct' });
  }
  return {
    teams: catalog.teams,
    directOwnership,
    ownershipAfter,
    removedRelations: catalog.allRemovedRelations,
    removedByBlueprint: catalog.removedRelations,
    migrated: catalog.migrated,
    teamMirrors: catalog.teamMirrors,
    orgBlueprints: catalog.blueprints,
    workflowTeamInputs: workflowTeamInputs(catalog.actions.values()),
    ...(catalog.jq && { jq: catalog.jq }),
  };
}

/**
 * The context of files judged by the catalog of their own repository (no org given): its teams,
 * blueprints, entities and migration state. A blueprint whose entities the files give teams gets
 * Direct ownership from the migration; what else the org holds beyond the files is unknown, so no
 * other ownership is said to be stripped by a copy without it.
 */
export function filesContext(catalog: Catalog): RepoContext {
  const { ownershipAfter: _after, ...ctx } = repoContext(catalog);
  return ctx;
}

export function hasTeamValue(team: unknown): boolean {
  if (typeof team === 'string') return team.length > 0;
  return Array.isArray(team) && team.some((value) => typeof value === 'string' && value.length > 0);
}

/** Why nothing tells whether the org has migrated, in words (`looked`: what no file holds): no file says, or none read does and some were not read. */
export function unknownStateWords({ unread }: { unread: readonly string[] }, looked = ''): string {
  if (unread.length === 0) return `no file says whether the org has migrated${looked}`;
  const shown = unread.slice(0, 3).join(', ') + (unread.length > 3 ? ` and ${unread.length - 3} more` : '');
  return `no file read says whether the org has migrated${looked}, and ${shown} could not be read`;
}
