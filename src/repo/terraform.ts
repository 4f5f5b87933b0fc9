import { own } from '../model/json.js';
import { parseCode } from './code-tree.js';
import { CLASS_KINDS } from './pulumi.js';
import type { RepoContext } from './context.js';
import { argumentsJson, emptyDocuments, findDocuments, iacResource, type ResourceKind } from './file-resources.js';
import { callsServiceApi, documentSites } from './api-scripts.js';
import type { FileDraft, FileSite, FileSites, ReadContext } from './file-sites.js';
import { gatherDeclared } from './repository-facts.js';
import { entityTeamSite, fileFinding, settledSites } from './findings.js';
import { resourceNeeds, TEAM_IDENTIFIER_VERSION, type ProviderFacts } from './provider-version.js';
import type { SourceText } from './source-text.js';
import { systemBlueprintShapeFindings } from './system-blueprint-shape.js';
import { isConfigurationReference, resolveReference } from './terraform-values.js';
import { posix } from 'node:path';
import type { Problems } from './tree-to-json.js';
import { findEntry, spanLocation, spanText, stringValue, type Entry, type ObjectNode } from './tree.js';

/** Resource types of the `port-labs/port-labs` provider (v1+): `port_` and the Pulumi class in snake case. */
const RESOURCE_KINDS: Readonly<Record<string, ResourceKind>> = Object.fromEntries(Object.entries(CLASS_KINDS).map(([name, kind]) => [`port${name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}`, kind]));

const TERRAFORM_NAMES = { team: 'port_team', blueprint: 'port_blueprint', system: 'port_system_blueprint', permissions: 'port_blueprint_permissions', entity: 'port_entity', inheritance: ['team_inheritance'] };

/** Analyze one `.tf` file. Throws SourceSyntaxError only when the file cannot be tokenized at all. */
export function analyzeTerraform(source: SourceText, ctx: ReadContext): FileSites {
  const top = parseCode(source, 'hcl');
  const sites: FileSite[] = [];
  const problems: Problems = [];
  const values = ctx.terraformValues?.get(posix.dirname(source.path));
  const resolve = (path: string) => (isConfigurationReference(path) ? resolveReference(values, path) : undefined);
  const options = { camelCase: true, problems, resolve };
  const resources = [];
  const provider: ProviderFacts = { needs: [] };
  for (const entry of top.entries) {
    const block = entry.value;
    if (block.kind !== 'object' || !block.labels) continue;
    if (entry.key === 'terraform') provider.constraint ??= providerConstraint(block);
    if (entry.key !== 'resource') continue;
    const [type = '', name = ''] = block.labels;
    if (type.startsWith('port-labs_') && LEGACY_TEAM_CONTENT.test(spanText(block.span))) provider.legacy ??= { type, at: spanLocation(entry.span) };
    const label = `${type}.${name}`;
    provider.needs.push(...resourceNeeds(type, block, spanLocation(entry.span), TERRAFORM_NAMES));
    if (ctx.gathering) gatherDeclared(ctx.gathering, { type, names: TERRAFORM_NAMES, args: argumentsJson(block, options), span: entry.span, head: entry.span, unnamed: `${type}.${block.labels[1] ?? '?'}`, description: true });
    if (type === 'port_team') {
      const name = findEntry(block, 'name');
      if (name) sites.push({ kind: 'shared-title', name, label });
      continue;
    }
    if (type === 'port_entity') {
      // `teams = var.teams`: the entry where the value is written (a default, a *.tfvars line), else the entry itself.
      const teams = findEntry(block, 'teams', 'team');
      sites.push(...entityTeamSite((teams?.value.kind === 'ref' && resolve(teams.value.path)) || teams, label, "the entity's `teams`"));
      continue;
    }
    const kind = own(RESOURCE_KINDS, type);
    if (!kind) continue;
    if (type === 'port_blueprint' || type === 'port_system_blueprint') {
      sites.push(...settledSites(systemBlueprintShapeFindings(block, stringValue(findEntry(block, 'identifier')?.value) ?? '', label)));
    }
    if (type === 'port_blueprint') {
      const system = systemBlueprintFinding(entry, block, name, label);
      if (system) {
        sites.push(...settledSites([system]));
        continue;
      }
    }
    const resource = iacResource(kind, argumentsJson(block, options), label);
    resources.push(type === 'port_system_blueprint' ? { ...resource, system: true as const } : resource);
  }
  // Bodies a configuration sends to the service's API itself (`restapi_object`, `data "http"`, a
  // `local-exec` curl): the `jsonencode({…})` or JSON they hold are the resources they write.
  if (callsServiceApi(source.text)) {
    const documents = emptyDocuments();
    for (const entry of top.entries) {
      const block = entry.value;
      if ((entry.key === 'resource' || entry.key === 'data') && block.kind === 'object' && !block.labels?.[0]?.startsWith('port')) findDocuments(block, { camelCase: false, problems, resolve }, documents);
    }
    sites.push(...documentSites(documents, 'hcl', ctx));
  }
  if (PORT_TEAM_REFERENCE.test(source.text)) provider.needs.push({ floor: TEAM_IDENTIFIER_VERSION, why: 'port_team.<name>.identifier', at: source.path });
  const identifierRead = PORT_TEAM_IDENTIFIER.exec(source.text);
  if (identifierRead && ctx.gathering) ctx.gathering.teamIdentifierReads.push({ configuration: posix.dirname(source.path), at: `${source.path}:${source.lineOf(identifierRead.index)}` });
  if (resources.length > 0) sites.push({ kind: 'resources', resources, syntax: 'hcl' });
  return { sites, problems, provider };
}

/** A 0.x resource that carries team values or inheritance (`team`, `teams`, `team_inheritance`). */
const LEGACY_TEAM_CONTENT = /^\s*"?(team|teams|team_inheritance)"?\s*[=:]/m;
/** `port_team.x.name` (to become `.identifier`) or `.identifier` already: both need port_team.identifier. */
const PORT_TEAM_REFERENCE = /\bport_team\.[A-Za-z0-9_-]+\.(name|identifier)\b/;
const PORT_TEAM_IDENTIFIER = /\bport_team\.[A-Za-z0-9_-]+\.identifier\b/;

/** `required_providers { port = { source = "port-labs/port-labs", version = "…" } }`. */
function providerConstraint(terraform: ObjectNode): ProviderFacts['constraint'] {
  for (const providers of terraform.entries.filter((e) => e.key === 'required_providers')) {
    if (providers.value.kind !== 'object') continue;
    for (const provider of providers.value.entries) {
      if (provider.value.kind !== 'object') continue;
      const source = stringValue(findEntry(provider.value, 'source')?.value);
      const version = findEntry(provider.value, 'version');
      if (!source || !/(^|\/)port-labs\/port-labs$/i.test(source) || version?.value.kind !== 'string') continue;
      return { text: version.value.value, at: spanLocation(version.span) };
    }
  }
  return undefined;
}

/** A `port_team` whose name two `_team` entities of the org carry as title: the provider's reads of it fail. */
export function sharedTitleFinding(name: Entry, ctx: RepoContext, label: string): FileDraft | undefined {
  const title = stringValue(name.value);
  const ambiguous = title !== undefined ? ctx.teams.byTitle.get(title)?.ambiguous : undefined;
  if (!ambiguous) return undefined;
  return fileFinding(name.span, label, {
    category: 'external-ownership',
    reason: `${ambiguous.length} teams of the org are titled ${JSON.stringify(title)} (${ambiguous.join(', ')}): the provider finds a port_team's _team entity by title, so its reads fail, and any title → identifier rewrite through it is ambiguous.`,
    suggestion: `Give the teams distinct titles in the service (or delete the duplicate) before applying; then reference the one meant by its identifier.`,
    settles: 'ambiguous-title',
  });
}

/** `_user` and `_team` become system blueprints: port_blueprint can no longer manage them. */
function systemBlueprintFinding(entry: Entry, block: ObjectNode, name: string, label: string): FileDraft | undefined {
  const identifier = stringValue(findEntry(block, 'identifier')?.value);
  if (identifier !== '_user' && identifier !== '_team') return undefined;
  const header = { ...entry.span, end: entry.span.source.text.indexOf('{', entry.span.start) + 1 };
  const rewrite = spanText(header).replace(/"port_blueprint"/, '"port_system_blueprint"');
  return fileFinding(header, label, {
    category: 'external-ownership',
    reason: `After the migration the ${identifier} blueprint is a system blueprint: port_blueprint can no longer manage it.`,
    suggestion: `Change it to \`${rewrite}\` (provider ≥ 2.2.0), keep only identifier, properties, relations and calculation properties, then move it in state: \`terraform state rm port_blueprint.${name}\` and \`terraform import port_system_blueprint.${name} ${identifier}\`.`,
    rewrite,
    settles: 'system-blueprint-shape',
  });
}
