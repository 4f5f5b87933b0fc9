import type { FindingDraft } from '../model/finding.js';
import { parseCode } from './code-tree.js';
import type { RepoContext } from './context.js';
import { argumentsJson, iacResource, type ResourceKind } from './file-resources.js';
import { byLine, entityTeamFinding, fileFinding, rewriteSpan } from './findings.js';
import { judgeFileResources } from './judge.js';
import { allowsAtLeast, allowsSystemBlueprint } from './provider-version.js';
import type { SourceText } from './source-text.js';
import type { Problems } from './tree-to-json.js';
import { findEntry, spanText, stringValue, type Entry, type ObjectNode } from './tree.js';

/** Resource types of the `port-labs/port-labs` provider (v1+) and the service resource each one is. */
const RESOURCE_KINDS: Readonly<Record<string, ResourceKind>> = {
  port_blueprint: 'blueprint',
  port_system_blueprint: 'blueprint',
  port_blueprint_permissions: 'blueprint-permissions',
  port_action_permissions: 'action-permissions',
  port_page_permissions: 'page-permissions',
  port_webhook: 'webhook',
  port_action: 'action',
  port_integration: 'integration',
  port_page: 'page',
  port_scorecard: 'scorecard',
};

export interface FileAnalysis {
  findings: FindingDraft[];
  /** Parts of the file that could not be read; the scan reports them as incomplete. */
  problems: Problems;
}

/** Analyze one `.tf` file. Throws SourceSyntaxError only when the file cannot be tokenized at all. */
export function analyzeTerraform(source: SourceText, ctx: RepoContext): FileAnalysis {
  const top = parseCode(source, 'hcl');
  const findings: FindingDraft[] = [];
  const problems: Problems = [];
  const options = { camelCase: true, problems };
  const resources = [];
  let legacy: Entry | undefined;
  for (const entry of top.entries) {
    const block = entry.value;
    if (block.kind !== 'object' || !block.labels) continue;
    if (entry.key === 'terraform') findings.push(...providerVersionFindings(block));
    if (entry.key !== 'resource') continue;
    const [type = '', name = ''] = block.labels;
    if (type.startsWith('port-labs_')) legacy ??= entry;
    const label = `${type}.${name}`;
    if (type === 'port_entity') {
      const found = entityTeamFinding(findEntry(block, 'teams', 'team'), ctx, label, "the entity's `teams`");
      if (found) findings.push(found);
      continue;
    }
    const kind = RESOURCE_KINDS[type];
    if (!kind) continue;
    if (type === 'port_blueprint') {
      const system = systemBlueprintFinding(entry, block, name, label);
      if (system) {
        findings.push(system);
        continue;
      }
    }
    resources.push(iacResource(kind, argumentsJson(block, options), label));
  }
  if (legacy) findings.push(legacyProviderFinding(legacy));
  findings.push(...judgeFileResources(resources, { syntax: 'hcl', ctx, problems }));
  return { findings: byLine(findings), problems };
}

/** `_user` and `_team` become system blueprints: port_blueprint can no longer manage them. */
function systemBlueprintFinding(entry: Entry, block: ObjectNode, name: string, label: string): FindingDraft | undefined {
  const identifier = stringValue(findEntry(block, 'identifier')?.value);
  if (identifier !== '_user' && identifier !== '_team') return undefined;
  const header = { ...entry.span, end: entry.span.source.text.indexOf('{', entry.span.start) + 1 };
  const rewrite = spanText(header).replace(/"port_blueprint"/, '"port_system_blueprint"');
  return fileFinding(header, label, {
    category: 'external-ownership',
    reason: `After the migration the ${identifier} blueprint is a system blueprint: port_blueprint can no longer manage it.`,
    suggestion: `Change it to \`${rewrite}\` (provider ≥ 2.2.0), keep only identifier, properties, relations and calculation properties, then move it in state: \`terraform state rm port_blueprint.${name}\` and \`terraform import port_system_blueprint.${name} ${identifier}\`.`,
    rewrite,
    verdict: 'breaks',
  });
}

const UPGRADE_FIRST =
  'Upgrade to provider port-labs/port-labs ≥ 2.2.0 first: from 1.0 on its resources are named with the prefix `port_` (port_entity, port_blueprint, …), and only 2.2.0 and later write ownership and manage _user and _team as port_system_blueprint. Then re-run this check.';

/** A 0.x configuration (`port-labs_*` resources): no rewrite applies before the upgrade. */
function legacyProviderFinding(entry: Entry): FindingDraft {
  const [type = ''] = entry.value.kind === 'object' ? (entry.value.labels ?? []) : [];
  const header = { ...entry.span, end: entry.span.source.text.indexOf('{', entry.span.start) + 1 };
  return fileFinding(header, `resource ${type}`, {
    category: 'external-ownership',
    reason: `This configuration uses the 0.x provider's resources (${type}), which cannot express ownership; after the migration it keeps writing team titles and team inheritance.`,
    suggestion: UPGRADE_FIRST,
    verdict: 'review',
  });
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
      if (allowsSystemBlueprint(version.value) !== false) continue;
      if (allowsAtLeast(version.value, [1, 0, 0]) === false) {
        findings.push(
          fileFinding(versionEntry.span, `provider ${provider.key}`, {
            category: 'external-ownership',
            reason: `The provider constraint "${version.value}" allows only 0.x, whose resources (port-labs_*) cannot express ownership.`,
            suggestion: UPGRADE_FIRST,
            verdict: 'review',
          }),
        );
        continue;
      }
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
