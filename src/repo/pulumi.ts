import type { FindingDraft } from '../model/finding.js';
import { parseCode } from './code-tree.js';
import type { RepoContext } from './context.js';
import { fileFinding } from './findings.js';
import type { SourceText } from './source-text.js';
import type { FileAnalysis } from './terraform.js';
import { findEntry, spanText, stringValue, type CallNode, type ObjectNode } from './tree.js';
import { ownershipRewrite, walkTree, type Owner, type WalkScope } from './walk.js';

/** Pulumi resource classes (npm `@port-labs/port`, PyPI `port_pulumi`) that hold teams. */
const CLASS_OWNERS: Readonly<Record<string, Owner>> = {
  Blueprint: 'blueprint',
  BlueprintPermissions: 'blueprint-permissions',
  ActionPermissions: 'action-permissions',
  PagePermissions: 'page-permissions',
  Entity: 'entity',
  Webhook: 'webhook',
  Action: 'action',
  Integration: 'integration',
  Page: 'page',
};

/** A program that imports the Port Pulumi SDK. Other scripts are read as API scripts, or not at all. */
export function isPulumiProgram(text: string): boolean {
  return /["']@port-labs\/port["']|\bport_pulumi\b/.test(text);
}

export function analyzePulumi(source: SourceText, language: 'js' | 'python', ctx: RepoContext): FileAnalysis {
  const top = parseCode(source, language);
  const problems: FileAnalysis['problems'] = [];
  const scope: WalkScope = { ctx, syntax: language, problems, onCall: resourceCall };
  return { findings: walkTree(top, 'payload', scope), problems };
}

/** `new port.Blueprint("svc", {…})` / `port.Blueprint("svc", identifier=…)`: the class decides the owner. */
function resourceCall(call: CallNode, owner: Owner, scope: WalkScope): { owner: Owner; findings: FindingDraft[]; resourceTitle?: string } {
  const className = call.callee.split('.').pop() ?? '';
  const classOwner = CLASS_OWNERS[className];
  if (!classOwner) return { owner, findings: [] };
  const name = stringValue(call.args.items[0]);
  const resourceTitle = `${className}${name ? ` ${name}` : ''}`;
  const findings = classOwner === 'blueprint' ? blueprintCallFindings(call, argsObject(call), { ...scope, resourceTitle }) : [];
  return { owner: classOwner, findings, resourceTitle };
}

/** TS passes `(name, {args})`; Python passes keywords. */
function argsObject(call: CallNode): ObjectNode {
  if (call.args.entries.length > 0) return call.args;
  return call.args.items.find((item): item is ObjectNode => item.kind === 'object') ?? call.args;
}

function blueprintCallFindings(call: CallNode, args: ObjectNode, scope: WalkScope): FindingDraft[] {
  const identifierEntry = findEntry(args, 'identifier');
  const identifier = stringValue(identifierEntry?.value);
  if (identifier === '_user' || identifier === '_team') {
    const calleeLine = { ...call.calleeSpan };
    const rewrite = `${spanText(calleeLine).replace(/Blueprint$/, 'SystemBlueprint')}`;
    return [
      fileFinding(calleeLine, scope.resourceTitle, {
        category: 'external-ownership',
        reason: `After the migration the ${identifier} blueprint is a system blueprint: the Blueprint resource can no longer manage it.`,
        suggestion: `Use \`${rewrite}\` (Pulumi Port ≥ 2.2.0) with identifier "${identifier}" and only properties, relations and calculation properties, and import it into the stack, since it cannot be created.`,
        rewrite,
        verdict: 'breaks',
      }),
    ];
  }
  if (identifier && identifierEntry && scope.ctx.directOwnership.has(identifier) && !findEntry(args, 'ownership', 'teamInheritance')) {
    const rewrite = ownershipRewrite(identifierEntry, scope.syntax, { type: 'Direct' });
    return [
      fileFinding(identifierEntry.span, scope.resourceTitle, {
        category: 'external-ownership',
        reason: `The org's entities of "${identifier}" carry team values and it has no team inheritance, so the migration gives it Direct ownership; this program sets none.`,
        suggestion: `Add \`${rewrite}\` to the blueprint's arguments (Pulumi Port ≥ 2.1.4).`,
        rewrite,
        verdict: 'breaks',
      }),
    ];
  }
  return [];
}
