import type { FindingDraft } from '../model/finding.js';
import type { RepoContext } from './context.js';
import { fileFinding, mappingTeamFinding, teamValuesFinding } from './findings.js';
import type { FileAnalysis } from './terraform.js';
import { findEntry, stringValue, type ObjectNode, type TreeNode } from './tree.js';
import { walkTree, type WalkScope } from './walk.js';

/**
 * GitOps entity files (`port.yml`, `port.yaml`): one entity or a list. Only a top-level `team`
 * is the meta property; `relations.team` and `properties.team` are a relation and a property.
 */
export function analyzeEntityFile(documents: readonly TreeNode[], ctx: RepoContext): FileAnalysis {
  const findings: FindingDraft[] = [];
  for (const document of documents) {
    const entities = document.kind === 'list' ? document.items : [document];
    for (const entity of entities) {
      if (entity.kind !== 'object') continue;
      const team = findEntry(entity, 'team');
      if (!team || (team.value.kind !== 'string' && team.value.kind !== 'list')) continue;
      const values = team.value.kind === 'list' ? team.value.items : [team.value];
      const identifier = stringValue(findEntry(entity, 'identifier')?.value);
      const found = teamValuesFinding(team, values, 'external-ownership', ctx, identifier && `entity ${identifier}`, "the entity's `team`");
      if (found) findings.push(found);
    }
  }
  return { findings, problems: [] };
}

const REPO_NOTE = 'kept in a repository file: the service cannot see this mapping, so the migration neither checks nor changes it';

/**
 * Mapping configs (`port-app-config.yml`, `.port/resources/port-app-config.*`): every mapping is
 * listed, since its target cannot be determined from the org; a `team` expression is checked.
 */
export function analyzeMappingConfig(documents: readonly TreeNode[], ctx: RepoContext): FileAnalysis {
  const findings: FindingDraft[] = [];
  const problems: FileAnalysis['problems'] = [];
  for (const document of documents) {
    if (document.kind !== 'object') continue;
    const resources = findEntry(document, 'resources')?.value;
    if (resources?.kind !== 'list') continue;
    for (const resource of resources.items) {
      if (resource.kind !== 'object') continue;
      const kind = stringValue(findEntry(resource, 'kind')?.value) ?? 'unknown kind';
      const entity = objectAt(resource, 'port', 'entity');
      const mappingsEntry = entity && findEntry(entity, 'mappings');
      if (!mappingsEntry) continue;
      const mappings = mappingsEntry.value.kind === 'list' ? mappingsEntry.value.items : [mappingsEntry.value];
      for (const mapping of mappings) {
        if (mapping.kind !== 'object') continue;
        const title = `mapping of kind "${kind}"${blueprintOf(mapping)}`;
        findings.push(...mappingFindings(mapping, mappingsEntry, title, ctx, problems));
      }
    }
  }
  return { findings, problems };
}

function mappingFindings(
  mapping: ObjectNode,
  mappingsEntry: { span: ObjectNode['span'] },
  title: string,
  ctx: RepoContext,
  problems: FileAnalysis['problems'],
): FindingDraft[] {
  const team = findEntry(mapping, 'team');
  if (team?.value.kind === 'string') {
    return [{ ...mappingTeamFinding(team, team.value, 'integration-mapping', ctx, title), note: REPO_NOTE }];
  }
  const anchor = team ?? findEntry(mapping, 'identifier') ?? { span: mappingsEntry.span };
  const scope: WalkScope = { ctx, syntax: 'yaml', resourceTitle: title, problems };
  const ruleFindings = team ? walkTree(team.value, 'integration', scope) : [];
  return [
    fileFinding(anchor.span, title, {
      category: 'integration-mapping',
      reason: team
        ? 'The mapping sets team with a search query, kept in a repository file the migration cannot see; its rule values must be team identifiers afterwards.'
        : 'The mapping is kept in a repository file, so the service cannot tell which blueprint it fills or whether ownership comes from it; it sets no team here.',
      suggestion: team
        ? 'Check that every rule value of the team query is a team identifier.'
        : 'Review it: if its blueprint gets ownership, add a `team` expression that produces team identifiers.',
      verdict: 'review',
      note: REPO_NOTE,
    }),
    ...ruleFindings,
  ];
}

function objectAt(object: ObjectNode, ...keys: string[]): ObjectNode | undefined {
  let current: ObjectNode | undefined = object;
  for (const key of keys) {
    const value: TreeNode | undefined = current && findEntry(current, key)?.value;
    current = value?.kind === 'object' ? value : undefined;
  }
  return current;
}

function blueprintOf(mapping: ObjectNode): string {
  const blueprint = stringValue(findEntry(mapping, 'blueprint')?.value);
  return blueprint ? ` → blueprint ${blueprint}` : '';
}
