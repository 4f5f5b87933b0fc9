import type { FindingDraft } from '../model/finding.js';
import { parseCode } from './code-tree.js';
import type { RepoContext } from './context.js';
import { fileFinding, rewriteSpan } from './findings.js';
import { allowsSystemBlueprint } from './provider-version.js';
import type { SourceText } from './source-text.js';
import { findEntry, spanText, stringValue, type Entry, type ObjectNode } from './tree.js';
import { ownershipRewrite, walkTree, type Owner, type WalkScope } from './walk.js';

/** Resource types of the `port-labs/port-labs` provider (v1+) that hold teams, and what they describe. */
const RESOURCE_OWNERS: Readonly<Record<string, Owner>> = {
  port_blueprint: 'blueprint',
  port_blueprint_permissions: 'blueprint-permissions',
  port_action_permissions: 'action-permissions',
  port_page_permissions: 'page-permissions',
  port_entity: 'entity',
  port_webhook: 'webhook',
  port_action: 'action',
  port_integration: 'integration',
  port_page: 'page',
};

export interface FileAnalysis {
  findings: FindingDraft[];
  /** Parts of the file that could not be read; the scan reports them as incomplete. */
  problems: { line: number; reason: string }[];
}

/** Analyze one `.tf` file. Throws SourceSyntaxError only when the file cannot be tokenized at all. */
export function analyzeTerraform(source: SourceText, ctx: RepoContext): FileAnalysis {
  const top = parseCode(source, 'hcl');
  const findings: FindingDraft[] = [];
  const problems: FileAnalysis['problems'] = [];
  for (const entry of top.entries) {
    const block = entry.value;
    if (block.kind !== 'object' || !block.labels) continue;
    if (entry.key === 'terraform') findings.push(...providerVersionFindings(block));
    if (entry.key !== 'resource') continue;
    const [type = '', name = ''] = block.labels;
    const owner = RESOURCE_OWNERS[type];
    if (!owner) continue;
    const scope: WalkScope = { ctx, syntax: 'hcl', resourceTitle: `${type}.${name}`, problems };
    if (owner === 'blueprint') findings.push(...blueprintFindings(entry, block, name, scope));
    findings.push(...walkTree(block, owner, scope));
  }
  return { findings, problems };
}

function blueprintFindings(entry: Entry, block: ObjectNode, name: string, scope: WalkScope): FindingDraft[] {
  const identifier = stringValue(findEntry(block, 'identifier')?.value);
  const header = { ...entry.span, end: entry.span.source.text.indexOf('{', entry.span.start) + 1 };
  if (identifier === '_user' || identifier === '_team') {
    const rewrite = spanText(header).replace(/"port_blueprint"/, '"port_system_blueprint"');
    return [
      fileFinding(header, scope.resourceTitle, {
        category: 'external-ownership',
        reason: `After the migration the ${identifier} blueprint is a system blueprint: port_blueprint can no longer manage it.`,
        suggestion: `Change it to \`${rewrite}\` (provider ≥ 2.2.0), keep only identifier, properties, relations and calculation properties, then move it in state: \`terraform state rm port_blueprint.${name}\` and \`terraform import port_system_blueprint.${name} ${identifier}\`.`,
        rewrite,
        verdict: 'breaks',
      }),
    ];
  }
  const identifierEntry = findEntry(block, 'identifier');
  if (identifier && identifierEntry && scope.ctx.directOwnership.has(identifier) && !findEntry(block, 'ownership', 'team_inheritance')) {
    const rewrite = ownershipRewrite(identifierEntry, 'hcl', { type: 'Direct' });
    return [
      fileFinding(identifierEntry.span, scope.resourceTitle, {
        category: 'external-ownership',
        reason: `The org's entities of "${identifier}" carry team values and it has no team inheritance, so the migration gives it Direct ownership; this copy has none and the next apply would differ from the service.`,
        suggestion: `Add \`${rewrite}\` to the resource (provider ≥ 2.1.4).`,
        rewrite,
        verdict: 'breaks',
      }),
    ];
  }
  return [];
}

/** `required_providers { port = { source = "port-labs/port-labs", version = "…" } }` that excludes 2.2.0+. */
function providerVersionFindings(terraform: ObjectNode): FindingDraft[] {
  const findings: FindingDraft[] = [];
  for (const providers of terraform.entries.filter((e) => e.key === 'required_providers')) {
    if (providers.value.kind !== 'object') continue;
    for (const provider of providers.value.entries) {
      if (provider.value.kind !== 'object') continue;
      const source = stringValue(findEntry(provider.value, 'source')?.value);
      const versionEntry = findEntry(provider.value, 'version');
      const version = versionEntry?.value;
      if (!source || !/(^|\/)port-labs\/port-labs$/i.test(source) || !versionEntry || version?.kind !== 'string') continue;
      const allowed = allowsSystemBlueprint(version.value);
      if (allowed !== false) continue;
      const rewrite = rewriteSpan(versionEntry.span, [{ node: version, value: '~> 2.2' }]);
      findings.push(
        fileFinding(versionEntry.span, `provider ${provider.key}`, {
          category: 'external-ownership',
          reason: `The provider constraint "${version.value}" excludes 2.2.0 and later, the versions that manage _user and _team as port_system_blueprint and write ownership.`,
          suggestion: `Allow 2.2.0 or later: \`${rewrite}\`.`,
          rewrite,
          verdict: 'breaks',
        }),
      );
    }
  }
  return findings;
}
