import type { Category, FindingDraft } from '../model/finding.js';
import { parseCode } from './code-tree.js';
import type { RepoContext } from './context.js';
import { fileFinding, jqReadFinding, mappingTeamFinding, teamValuesFinding } from './findings.js';
import { decodedSourceText, SourceSyntaxError, sourceText, type SourceText } from './source-text.js';
import { findEntry, normalizeKey, spanLine, spanText, stringValue, type CallNode, type Entry, type ObjectNode, type StringNode, type TreeNode } from './tree.js';
import { parseYaml } from './yaml-tree.js';

/** Which kind of service resource a part of a file describes; it decides each finding's category. */
export type Owner =
  | 'blueprint'
  | 'blueprint-permissions'
  | 'action-permissions'
  | 'page-permissions'
  | 'entity'
  | 'webhook'
  | 'action'
  | 'integration'
  | 'page'
  /** An API body or JSON file of unknown kind: the key path decides. */
  | 'payload';

export type Syntax = 'hcl' | 'js' | 'python' | 'json' | 'yaml';

export interface WalkScope {
  ctx: RepoContext;
  syntax: Syntax;
  /** Shown as the finding's resource title (`port_blueprint.service`). */
  resourceTitle?: string;
  /** Format-specific checks for calls (Pulumi resource constructors); may change the owner below. */
  onCall?: (call: CallNode, owner: Owner, scope: WalkScope) => { owner: Owner; findings: FindingDraft[]; resourceTitle?: string };
  /** Strings that looked like embedded JSON/YAML but could not be read. */
  problems: { line: number; reason: string }[];
}

/** `relations.team` and `properties.team` name a relation or property, not the meta property. */
const NAMESPACES = new Set(['relations', 'properties', 'schema', 'mirrorproperties', 'calculationproperties']);
const PERMISSION_KEYS = new Set(['permissions', 'execute', 'approve', 'register', 'unregister', 'update', 'read', 'updateproperties', 'updaterelations', 'updatemetadataproperties']);

export function walkTree(node: TreeNode, owner: Owner, scope: WalkScope, path: readonly string[] = []): FindingDraft[] {
  switch (node.kind) {
    case 'object':
      return walkObject(node, owner, scope, path);
    case 'list':
      return node.items.flatMap((item) => walkTree(item, owner, scope, path));
    case 'call': {
      const handled = scope.onCall?.(node, owner, scope);
      if (!handled) return walkObject(node.args, owner, scope, path);
      const inner = handled.resourceTitle ? { ...scope, resourceTitle: handled.resourceTitle } : scope;
      return [...handled.findings, ...walkObject(node.args, handled.owner, inner, path)];
    }
    case 'other':
      return node.parts.flatMap((part) => walkTree(part, owner, scope, path));
    case 'string': {
      // A heredoc in a list (`widgets = [<<EOF … EOF]`) or a JSON body passed positionally.
      const embedded = readEmbedded(node, scope);
      return embedded ? walkTree(embedded, owner, scope, path) : [];
    }
    default:
      return [];
  }
}

function walkObject(object: ObjectNode, owner: Owner, scope: WalkScope, path: readonly string[]): FindingDraft[] {
  const findings: FindingDraft[] = [];
  const rule = teamRuleFinding(object, owner, scope, path);
  if (rule) findings.push(rule);
  for (const entry of object.entries) findings.push(...walkEntry(entry, object, owner, scope, path));
  for (const item of object.items) findings.push(...walkTree(item, owner, scope, path));
  return findings;
}

function walkEntry(entry: Entry, parent: ObjectNode, owner: Owner, scope: WalkScope, path: readonly string[]): FindingDraft[] {
  const key = normalizeKey(entry.key);
  // Provider schemas nest further (`properties.string_props.team`), so any namespace above counts.
  const inNamespace = path.some((segment) => NAMESPACES.has(segment));
  const value = entry.value;
  const childPath = [...path, key];
  const { ctx, resourceTitle } = scope;
  // `calculation_properties = { x = { calculation = "…" } }`: calculations run on the entity, so `.team` is the meta property.
  if (key === 'calculation' && value.kind === 'string' && path.at(-2) === 'calculationproperties' && (owner === 'blueprint' || owner === 'payload')) {
    const found = jqReadFinding(entry, value, 'calculation-property', ctx, resourceTitle);
    return found ? [found] : [];
  }
  // A dynamic permission policy's `conditions`: jq over the query results (`.results.q.entities | map(.team)`).
  if (!inNamespace && key === 'conditions' && value.kind === 'list' && path.includes('policy')) {
    return value.items.flatMap((item) => {
      if (item.kind !== 'string') return walkTree(item, owner, scope, childPath);
      // One finding per condition, at its own line: a policy often lists several.
      const condition: Entry = { key: entry.key, keySpan: item.span, value: item, span: item.span };
      const found = jqReadFinding(condition, item, 'action-dynamic-permission', ctx, resourceTitle);
      return found ? [found] : [];
    });
  }
  if (!inNamespace) {
    if (key === 'teaminheritance') return inheritanceFindings(entry, parent, scope);
    const category = key === 'teams' && value.kind === 'list' ? teamsCategory(owner, path) : undefined;
    if (category && value.kind === 'list') {
      const found = teamValuesFinding(entry, value.items, category, ctx, resourceTitle, '`teams`');
      return found ? [found] : [];
    }
    if (key === 'teamsjq' && value.kind === 'string') return [mappingTeamFinding(entry, value, 'action-mapping', ctx, resourceTitle)];
    if (key === 'team' && (value.kind === 'string' || value.kind === 'list')) {
      const found = teamEntryFinding(entry, value, parent, owner, scope, path);
      return found ? [found] : [];
    }
  }
  if (key.endsWith('jqquery') && value.kind === 'string' && owner === 'action') {
    const found = jqReadFinding(entry, value, 'action-user-input', ctx, resourceTitle);
    return found ? [found] : [];
  }
  return walkTree(value, owner, scope, childPath);
}

/** Undefined for a `teams` list in a payload of unknown shape: a JSON file may use the word for anything. */
function teamsCategory(owner: Owner, path: readonly string[]): Category | undefined {
  if (owner === 'blueprint-permissions' || owner === 'action-permissions' || owner === 'page-permissions') return 'team-permission-identifiers';
  if (owner === 'action') return 'action-mapping';
  if (owner !== 'payload') return 'external-ownership';
  if (path.some((key) => PERMISSION_KEYS.has(key))) return 'team-permission-identifiers';
  if (path.includes('mapping')) return 'action-mapping';
  return undefined;
}

/** A `team` key: a mapping's jq expression, or an entity's literal team value(s). */
function teamEntryFinding(entry: Entry, value: TreeNode, parent: ObjectNode, owner: Owner, scope: WalkScope, path: readonly string[]): FindingDraft | undefined {
  const mapping = mappingCategory(owner, path);
  if (mapping && value.kind === 'string') return mappingTeamFinding(entry, value, mapping, scope.ctx, scope.resourceTitle);
  // An action's webhook body sends `team` out; it reads team values but sets no entity's team.
  if (owner === 'action' && value.kind === 'string') return jqReadFinding(entry, value, 'action-mapping', scope.ctx, scope.resourceTitle);
  const isEntity = owner === 'entity' || (owner === 'payload' && findEntry(parent, 'identifier') !== undefined);
  if (!isEntity && !mapping) return undefined;
  const values = value.kind === 'list' ? value.items : [value];
  return teamValuesFinding(entry, values, mapping ?? 'external-ownership', scope.ctx, scope.resourceTitle, "the entity's `team`");
}

function mappingCategory(owner: Owner, path: readonly string[]): Category | undefined {
  if (owner === 'webhook') return 'webhook-mapping';
  if (owner === 'integration') return 'integration-mapping';
  if (owner === 'action') return path.includes('mapping') ? 'action-mapping' : undefined;
  if (owner !== 'payload') return undefined;
  if (path.includes('resources') && path.includes('mappings')) return 'integration-mapping';
  if (path.includes('mappings')) return 'webhook-mapping';
  if (path.includes('mapping') || path.includes('invocationmethod')) return 'action-mapping';
  return undefined;
}

function ruleCategory(owner: Owner, path: readonly string[]): Category | undefined {
  if (owner === 'page' || path.includes('widgets')) return 'page-widget';
  if (owner === 'action-permissions' || path.includes('policy')) return 'action-dynamic-permission';
  if (owner === 'action') return path.some((key) => /userinputs|userproperties|selfservicetrigger/.test(key)) ? 'action-user-input' : 'action-mapping';
  return mappingCategory(owner, path);
}

/** `{property: "$team", operator, value}`: a search rule comparing team values. */
function teamRuleFinding(object: ObjectNode, owner: Owner, scope: WalkScope, path: readonly string[]): FindingDraft | undefined {
  if (stringValue(findEntry(object, 'property')?.value) !== '$team') return undefined;
  const valueEntry = findEntry(object, 'value');
  const category = ruleCategory(owner, path);
  if (!valueEntry || !category) return undefined;
  const values = valueEntry.value.kind === 'list' ? valueEntry.value.items : [valueEntry.value];
  return teamValuesFinding(valueEntry, values, category, scope.ctx, scope.resourceTitle, 'the `$team` rule');
}

/** `team_inheritance = { path = … }` → `ownership = { type = "Inherited", path = … }`, in the file's own syntax. */
function inheritanceFindings(entry: Entry, parent: ObjectNode, scope: WalkScope): FindingDraft[] {
  const value = entry.value;
  const inheritance = value.kind === 'call' ? value.args : value.kind === 'object' ? value : undefined;
  const path = inheritance ? stringValue(findEntry(inheritance, 'path')?.value) : undefined;
  const hasOwnership = findEntry(parent, 'ownership') !== undefined;
  const rewrite = path !== undefined && !hasOwnership ? ownershipRewrite(entry, scope.syntax, { type: 'Inherited', path }) : undefined;
  return [
    fileFinding(entry.span, scope.resourceTitle, {
      category: 'external-ownership',
      reason: hasOwnership
        ? 'team inheritance is deprecated and ignored once ownership is set; this copy keeps both.'
        : `This file keeps the blueprint's team inheritance${path !== undefined ? ` over "${path}"` : ''}; the migration turns it into Inherited ownership in the service, and the next apply would set the old field again.`,
      suggestion: hasOwnership
        ? 'Remove the team inheritance; keep ownership.'
        : rewrite !== undefined
          ? `Replace it with \`${rewrite}\` (Terraform provider ≥ 2.1.4, Pulumi ≥ 2.1.4).`
          : 'Replace it with Inherited ownership over the same path.',
      ...(rewrite !== undefined ? { rewrite } : {}),
      verdict: 'breaks',
    }),
  ];
}

export interface OwnershipValue {
  type: 'Inherited' | 'Direct';
  path?: string;
}

/** The `ownership` entry written like `entry` was: same key style, separator and value syntax. */
export function ownershipRewrite(entry: Entry, syntax: Syntax, ownership: OwnershipValue): string {
  const pairs: [string, string][] = [['type', ownership.type]];
  if (ownership.path !== undefined) pairs.push(['path', ownership.path]);
  if (syntax === 'yaml') {
    const indent = /^\s*(?:-\s+)?/.exec(spanText(entry.keySpan))?.[0].length ?? 0;
    return `${' '.repeat(indent)}ownership: {${pairs.map(([k, v]) => `${k}: ${v}`).join(', ')}}`.trim();
  }
  const keyText = spanText(entry.keySpan);
  const key = keyText.split(entry.key).join('ownership');
  const separator = entry.value.span.source === entry.keySpan.source ? entry.keySpan.source.text.slice(entry.keySpan.end, entry.value.span.start) : ' = ';
  const value = entry.value;
  if (value.kind === 'call') {
    const callee = value.callee.replace(/TeamInheritanceArgs$/, 'OwnershipArgs');
    return `${key}${separator}${callee}(${pairs.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(', ')})`;
  }
  const quotedKeys = /^["']/.test(keyText) || (syntax === 'python' && separator.trim() === '=');
  const body =
    syntax === 'hcl'
      ? `{ ${pairs.map(([k, v]) => `${k} = ${JSON.stringify(v)}`).join(', ')} }`
      : quotedKeys || syntax === 'json'
        ? `{${pairs.map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(', ')}}`
        : `{ ${pairs.map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(', ')} }`;
  return `${key}${separator}${body}`;
}

/**
 * A string that holds JSON (an HCL `config = <<EOF … EOF`, a shell body) or a YAML mapping
 * config: read it as a tree so its keys are checked like any other. Plain strings give nothing.
 */
export function readEmbedded(node: StringNode, scope: WalkScope): TreeNode | undefined {
  const trimmed = node.value.trim();
  const looksJson = /^[{[]/.test(trimmed) && /[}\]]$/.test(trimmed) && trimmed.includes(':');
  const looksYaml = node.quote === 'heredoc' && !looksJson && /^[\w$"'-][^\n]*:(\s|$)/m.test(trimmed) && trimmed.includes('\n');
  if (!looksJson && !looksYaml) return undefined;
  const outer = node.span.source;
  const line = spanLine(node.span);
  try {
    if (looksJson) {
      return node.exact
        ? parseCode(outer, 'json', node.contentStart, node.contentEnd)
        : parseCode(decodedSourceText(outer, node.value, line), 'json');
    }
    // The heredoc's text is the file's text from contentStart on: its lines count from there.
    const base = outer.lineOf(node.contentStart) - 1;
    const decoded = sourceText(outer.path, node.value);
    const inner: SourceText = { ...decoded, lineOf: (offset) => base + decoded.lineOf(offset) };
    return parseYaml(inner)[0];
  } catch (error) {
    if (!(error instanceof SourceSyntaxError)) throw error;
    scope.problems.push({ line, reason: `a string that looks like ${looksJson ? 'JSON' : 'YAML'} could not be read: ${error.message}` });
    return undefined;
  }
}
