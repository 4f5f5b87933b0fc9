import { own } from '../model/json.js';
import { parseCode } from './code-tree.js';
import { argumentsJson, iacResource, type FileResource, type ResourceKind } from './file-resources.js';
import type { FileDraft, FileSite, FileSites, ReadContext } from './file-sites.js';
import { entityTeamSite, fileFinding, settledSites } from './findings.js';
import type { SourceText } from './source-text.js';
import { gatherDeclared } from './repository-facts.js';
import { systemBlueprintShapeFindings } from './system-blueprint-shape.js';
import type { ConvertOptions, Problems } from './tree-to-json.js';
import { resourceNeeds, type ProviderNeed } from './provider-version.js';
import { findEntry, spanLocation, spanText, stringValue, treeChildren, type CallNode, type ObjectNode, type TreeNode } from './tree.js';

/**
 * Pulumi resource classes (npm `@port-labs/port`, PyPI `port_pulumi`) and the service resource each
 * one is. The package is bridged from the Terraform provider, which names each class's type after it
 * (`BlueprintPermissions`: `port_blueprint_permissions`): terraform.ts reads its types from here.
 */
export const CLASS_KINDS: Readonly<Record<string, ResourceKind>> = { Blueprint: 'blueprint', SystemBlueprint: 'blueprint', BlueprintPermissions: 'blueprint-permissions', ActionPermissions: 'action-permissions', PagePermissions: 'page-permissions', Webhook: 'webhook', Action: 'action', Integration: 'integration', Page: 'page', Scorecard: 'scorecard' };

const PULUMI_NAMES = { team: 'Team', blueprint: 'Blueprint', system: 'SystemBlueprint', permissions: 'BlueprintPermissions', entity: 'Entity', inheritance: ['teamInheritance', 'team_inheritance'] };

/** A program that imports the Port Pulumi SDK. Other scripts are read as API scripts, or not at all. */
export function isPulumiProgram(text: string): boolean {
  // The plain searches first: most code names neither, and they cost a fraction of the pattern's (issue 33).
  return (text.includes('@port-labs/port') || text.includes('port_pulumi')) && /["']@port-labs\/port["']|\bport_pulumi\b/.test(text);
}

export function analyzePulumi(source: SourceText, language: 'js' | 'python', ctx: ReadContext): FileSites {
  const problems: Problems = [];
  const options: ConvertOptions = { camelCase: language === 'python', problems };
  const sites: FileSite[] = [];
  const resources: FileResource[] = [];
  const needs: ProviderNeed[] = [];
  visitCalls(parseCode(source, language), (call) => {
    const className = call.callee.split('.').pop() ?? '';
    const kind = own(CLASS_KINDS, className);
    if (!kind && className !== 'Entity' && className !== 'Team') return false;
    const name = stringValue(call.args.items[0]);
    const label = `${className}${name ? ` ${name}` : ''}`;
    const args = argsObject(call);
    if (ctx.gathering) gatherDeclared(ctx.gathering, { type: className, names: PULUMI_NAMES, args: argumentsJson(args, options), span: call.span, head: call.calleeSpan, unnamed: `Entity ${name ?? '?'}` });
    if (className === 'Team') return true;
    needs.push(...resourceNeeds(className, args, spanLocation(call.span), PULUMI_NAMES));
    if (className === 'Entity') {
      sites.push(...entityTeamSite(findEntry(args, 'teams', 'team'), label, "the entity's `teams`"));
      return true;
    }
    if (className === 'Blueprint' || className === 'SystemBlueprint') sites.push(...settledSites(systemBlueprintShapeFindings(args, stringValue(findEntry(args, 'identifier')?.value) ?? '', label)));
    const system = className === 'Blueprint' ? systemBlueprintFinding(call, args, label) : undefined;
    if (system) sites.push(...settledSites([system]));
    else {
      const resource = iacResource(kind!, argumentsJson(args, options), label);
      resources.push(className === 'SystemBlueprint' ? { ...resource, system: true as const } : resource);
    }
    return true;
  });
  if (resources.length > 0) sites.push({ kind: 'resources', resources, syntax: language });
  return { sites, problems, provider: { tool: 'pulumi', needs } };
}

/** Every call in the program; `handle` returns true when it took the call whole. */
function visitCalls(node: TreeNode, handle: (call: CallNode) => boolean): void {
  if (node.kind === 'call' && handle(node)) return;
  for (const child of treeChildren(node)) visitCalls(child, handle);
}

/** TS passes `(name, {args})`; Python passes keywords. */
function argsObject(call: CallNode): ObjectNode {
  if (call.args.entries.length > 0) return call.args;
  return call.args.items.find((item): item is ObjectNode => item.kind === 'object') ?? call.args;
}

function systemBlueprintFinding(call: CallNode, args: ObjectNode, label: string): FileDraft | undefined {
  const identifier = stringValue(findEntry(args, 'identifier')?.value);
  if (identifier !== '_user' && identifier !== '_team') return undefined;
  const rewrite = spanText(call.calleeSpan).replace(/Blueprint$/, 'SystemBlueprint');
  return fileFinding(call.calleeSpan, label, {
    category: 'external-ownership',
    reason: `After the migration the ${identifier} blueprint is a system blueprint: the Blueprint resource can no longer manage it.`,
    suggestion: `Use \`${rewrite}\` (Pulumi Port ≥ 2.2.0) with identifier "${identifier}" and only properties, relations and calculation properties, and import it into the stack, since it cannot be created.`,
    rewrite,
    settles: 'system-blueprint-shape',
  });
}
