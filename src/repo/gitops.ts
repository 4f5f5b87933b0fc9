import { entityTeamSite } from './findings.js';
import { iacResource, type FileResource } from './file-resources.js';
import type { FileSite, FileSites, ReadContext } from './file-sites.js';
import { treeToJson, type Problems } from './tree-to-json.js';
import { findEntry, stringValue, type ObjectNode, type TreeNode } from './tree.js';
import { addEntity, addTeamValues, type RepositoryFacts } from './repository-facts.js';

/**
 * GitOps entity files (`port.yml`, `port.yaml`): one entity or a list. Only a top-level `team`
 * is the meta property; `relations.team` and `properties.team` are a relation and a property.
 */
export function analyzeEntityFile(documents: readonly TreeNode[], ctx: ReadContext): FileSites {
  const sites: FileSite[] = [];
  for (const document of documents) {
    const entities = document.kind === 'list' ? document.items : [document];
    for (const entity of entities) {
      if (entity.kind !== 'object') continue;
      const identifier = stringValue(findEntry(entity, 'identifier')?.value);
      if (ctx.gathering) gatherEntity(ctx.gathering, entity, identifier);
      sites.push(...entityTeamSite(findEntry(entity, 'team'), identifier && `entity ${identifier}`, "the entity's `team`"));
    }
  }
  return { sites, problems: [] };
}

/** The scan's first pass: a GitOps entity's blueprint and teams, for the ownership the migration gives that blueprint. */
function gatherEntity(facts: RepositoryFacts, entity: ObjectNode, identifier: string | undefined): void {
  const blueprint = stringValue(findEntry(entity, 'blueprint')?.value);
  const team = findEntry(entity, 'team');
  const values = (team?.value.kind === 'list' ? team.value.items : team ? [team.value] : []).flatMap((value) => (value.kind === 'string' ? [value.value] : []));
  if (team) addTeamValues(facts, values, team.span);
  if (blueprint !== undefined) addEntity(facts, blueprint, { identifier: identifier ?? '?', team: values });
}

const REPO_NOTE = 'kept in a repository file: the service cannot see this mapping, so the migration neither checks nor changes it';

/**
 * Mapping configs (`port-app-config.yml`, `.port/resources/port-app-config.*`): the document is an
 * integration's `config`, judged by the org's rules like a mapping kept in the service. A mapping
 * that sets no team (and no removed relation) is checked and needs nothing: it is no finding.
 */
export function analyzeMappingConfig(documents: readonly TreeNode[], ctx: ReadContext, syntax: 'yaml' | 'json' = 'yaml'): FileSites {
  const problems: Problems = [];
  const resources: FileResource[] = [];
  const sites: FileSite[] = [];
  for (const document of documents) {
    if (document.kind !== 'object') continue;
    // The GitHub app's `defaultTeam`: the team, by name, of every port.yml entity that names none.
    const defaultTeam = findEntry(document, 'defaultTeam');
    if (defaultTeam?.value.kind === 'string') {
      if (ctx.gathering) addTeamValues(ctx.gathering, [defaultTeam.value.value], defaultTeam.span);
      sites.push(...entityTeamSite(defaultTeam, 'mapping config', '`defaultTeam`'));
    }
    if (findEntry(document, 'resources')?.value.kind !== 'list') continue;
    const value = treeToJson(document, { node: document }, { camelCase: false, problems });
    if (value?.kind === 'object') resources.push(iacResource('integration', value, 'mapping config'));
  }
  if (resources.length > 0) sites.push({ kind: 'resources', resources, syntax, note: REPO_NOTE });
  return { sites, problems };
}
