import type { FindingDraft } from '../model/finding.js';
import type { RepoContext } from './context.js';
import { byLine, entityTeamFinding, fileFinding } from './findings.js';
import { iacResource } from './file-resources.js';
import { judgeFileResources } from './judge.js';
import { treeToJson } from './tree-to-json.js';
import type { FileAnalysis } from './terraform.js';
import { findEntry, stringValue, type ObjectNode, type TreeNode } from './tree.js';

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
      const identifier = stringValue(findEntry(entity, 'identifier')?.value);
      const found = entityTeamFinding(findEntry(entity, 'team'), ctx, identifier && `entity ${identifier}`, "the entity's `team`");
      if (found) findings.push(found);
    }
  }
  return { findings, problems: [] };
}

const REPO_NOTE = 'kept in a repository file: the service cannot see this mapping, so the migration neither checks nor changes it';

/**
 * Mapping configs (`port-app-config.yml`, `.port/resources/port-app-config.*`): the document is an
 * integration's `config`, judged by the org's rules. A mapping that sets no team is still listed,
 * since which blueprint it fills, and whether that one gets ownership, cannot be told from the org.
 */
export function analyzeMappingConfig(documents: readonly TreeNode[], ctx: RepoContext, syntax: 'yaml' | 'json' = 'yaml'): FileAnalysis {
  const findings: FindingDraft[] = [];
  const problems: FileAnalysis['problems'] = [];
  const resources = [];
  for (const document of documents) {
    if (document.kind !== 'object') continue;
    const resourcesEntry = findEntry(document, 'resources');
    if (resourcesEntry?.value.kind !== 'list') continue;
    const value = treeToJson(document, { node: document }, { camelCase: false, problems });
    if (value?.kind === 'object') resources.push(iacResource('integration', value, 'mapping config'));
    for (const resource of resourcesEntry.value.items) {
      if (resource.kind !== 'object') continue;
      const kind = stringValue(findEntry(resource, 'kind')?.value) ?? 'unknown kind';
      const entity = objectAt(resource, 'port', 'entity');
      const mappingsEntry = entity && findEntry(entity, 'mappings');
      if (!mappingsEntry) continue;
      const mappings = mappingsEntry.value.kind === 'list' ? mappingsEntry.value.items : [mappingsEntry.value];
      for (const mapping of mappings) {
        if (mapping.kind !== 'object' || findEntry(mapping, 'team')) continue;
        const anchor = findEntry(mapping, 'identifier') ?? mappingsEntry;
        findings.push(
          fileFinding(anchor.span, `mapping of kind "${kind}"${blueprintOf(mapping)}`, {
            category: 'integration-mapping',
            reason: 'The mapping is kept in a repository file, so the service cannot tell which blueprint it fills or whether ownership comes from it; it sets no team here.',
            suggestion: 'Review it: if its blueprint gets ownership, add a `team` expression that produces team identifiers.',
            verdict: 'review',
            note: REPO_NOTE,
          }),
        );
      }
    }
  }
  findings.push(...judgeFileResources(resources, { syntax, ctx, problems, note: REPO_NOTE }));
  return { findings: byLine(findings), problems };
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
