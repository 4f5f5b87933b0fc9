import { documentValue, parseCode } from './code-tree.js';
import { located, type LocatedJson, type Origin } from './located-json.js';
import { decodedSourceText, SourceSyntaxError, sourceText, type SourceText } from './source-text.js';
import { spanLine, spanText, type CallNode, type Entry, type StringNode, type TreeNode } from './tree.js';
import { parseYaml } from './yaml-tree.js';
import { PICKS_AMONG_ARGUMENTS } from './terraform-values.js';

export type Problems = { line: number; reason: string }[];

export interface ConvertOptions {
  /** HCL and Python name attributes in snake_case; the service's shape uses camelCase. */
  camelCase: boolean;
  /** Strings that looked like embedded JSON/YAML but could not be read. */
  problems: Problems;
  /** Terraform: the value a reference (`var.teams`, `local.owners`) stands for, located where it is written. */
  resolve?: (path: string) => Entry | undefined;
}

/** Keys whose children are names the user chose (property, relation, blueprint ids): never renamed. */
const USER_NAMED = new Set(['properties', 'relations', 'calculationProperties', 'mirrorProperties', 'blueprintConfig', 'queries', 'updateProperties', 'updateRelations', 'headers', 'body', 'workflowInputs', 'stringProps', 'numberProps', 'booleanProps', 'objectProps', 'arrayProps']);

/** Attributes the provider and SDKs hold as a JSON (or YAML) string: their content is the value. */
const ENCODED = new Set(['policy', 'config', 'body', 'properties', 'relations', 'workflowInputs', 'payload', 'condition', 'dataset', 'widgets']);

/** Calls whose first argument is the value itself: `jsonencode({…})`, `JSON.stringify({…})`, `json.dumps({…})`. */
const ENCODERS = /(^|\.)(jsonencode|yamlencode|stringify|dumps|output)$/;

const snakeToCamel = (key: string) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/**
 * The JSON a tree node stands for, or undefined for what is no value of ours (an arithmetic
 * expression, a function of unknown meaning). Terraform references stay visible as `${a.b.c}`.
 */
export function treeToJson(node: TreeNode, origin: Origin, options: ConvertOptions, parentKey?: string): LocatedJson | undefined {
  switch (node.kind) {
    case 'string': {
      if (parentKey !== undefined && ENCODED.has(parentKey)) {
        const embedded = readEmbedded(node, options.problems);
        if (embedded) return treeToJson(embedded, origin, options, parentKey);
      }
      return located.scalar(node.value, origin);
    }
    case 'list': {
      const items: LocatedJson[] = [];
      for (const item of node.items) {
        // `widgets = [<<EOF {…} EOF]`: each item is an encoded widget.
        const value = treeToJson(item, { node: item }, options, parentKey === 'widgets' ? 'widgets' : undefined);
        // `[local.owner]` with `owner = coalesce(var.team, "Platform Team")`: the list holds one of its values.
        if (value?.kind === 'array' && picksAmongValues(item, options)) items.push(...value.items);
        else if (value) items.push(value);
      }
      return { kind: 'array', items, origin };
    }
    case 'object': {
      const object = located.object(origin);
      const rename = options.camelCase && !(parentKey !== undefined && USER_NAMED.has(parentKey));
      for (const entry of node.entries) {
        const key = rename ? snakeToCamel(entry.key) : entry.key;
        const value = treeToJson(entry.value, { node: entry.value, entry }, options, key);
        if (value) object.fields.set(key, value);
      }
      return object;
    }
    case 'call': {
      // What a picking function may give, as one list (a team list holds any of them).
      if (PICKS_AMONG_ARGUMENTS.has(node.callee) && node.args.items.length > 1) {
        const choices = node.args.items.flatMap((item) => {
          const value = treeToJson(item, { node: item }, options, parentKey);
          return value?.kind === 'array' ? value.items : value ? [value] : [];
        });
        return { kind: 'array', items: choices, origin };
      }
      const value = callValue(node);
      return value ? treeToJson(value, origin, options, parentKey) : undefined;
    }
    case 'ref': {
      if (node.path === 'true' || node.path === 'True') return located.scalar(true, origin);
      if (node.path === 'false' || node.path === 'False') return located.scalar(false, origin);
      if (node.path === 'null' || node.path === 'None') return located.scalar(null, origin);
      const resolved = options.resolve?.(node.path);
      if (resolved) {
        // References inside the value resolve too, except back to one being resolved (a loop).
        const inner: ConvertOptions = { ...options, resolve: (path) => (path === node.path ? undefined : options.resolve!(path)) };
        return treeToJson(resolved.value, { node: resolved.value, entry: resolved }, inner, parentKey);
      }
      return located.scalar(`\${${node.path}}`, origin);
    }
    case 'other': {
      const text = spanText(node.span).trim();
      if (node.parts.length === 0 && /^-?\d+(\.\d+)?$/.test(text)) return located.scalar(Number(text), origin);
      return undefined;
    }
  }
}

/** Whether a list item is, or refers to, a call that picks among its arguments (its array is spread into the list). */
function picksAmongValues(node: TreeNode, options: ConvertOptions, hops = 0): boolean {
  if (node.kind === 'call') return PICKS_AMONG_ARGUMENTS.has(node.callee) && node.args.items.length > 1;
  const resolved = node.kind === 'ref' && hops < 8 ? options.resolve?.(node.path) : undefined;
  return resolved !== undefined && picksAmongValues(resolved.value, options, hops + 1);
}

/**
 * The node a call stands for: an encoder's first argument (`jsonencode({…})`), keyword arguments
 * (`port.BlueprintTeamInheritanceArgs(path="x")`), or a lone argument.
 */
export function callValue(node: CallNode): TreeNode | undefined {
  if (ENCODERS.test(node.callee) && node.args.items[0]) return node.args.items[0];
  if (node.args.entries.length > 0) return node.args;
  return node.args.items.length === 1 ? node.args.items[0] : undefined;
}

/** A Terraform reference as treeToJson writes it: `${port_team.sre.name}`. */
export const REFERENCE = /^\$\{([A-Za-z_][\w.[\]"*-]*)\}$/;

/**
 * A string that holds JSON (an HCL `policy = <<EOF … EOF`, a shell body) or a YAML mapping
 * config: read it as a tree, located where it is written. Plain strings give nothing.
 */
export function readEmbedded(node: StringNode, problems: Problems): TreeNode | undefined {
  const trimmed = node.value.trim();
  const looksJson = /^[{[]/.test(trimmed) && /[}\]]$/.test(trimmed) && trimmed.includes(':');
  const looksYaml = node.quote === 'heredoc' && !looksJson && /^[\w$"'-][^\n]*:(\s|$)/m.test(trimmed) && trimmed.includes('\n');
  if (!looksJson && !looksYaml) return undefined;
  const outer = node.span.source;
  const line = spanLine(node.span);
  try {
    if (looksJson) {
      return documentValue(node.exact ? parseCode(outer, 'json', node.contentStart, node.contentEnd) : parseCode(decodedSourceText(outer, node.value, line), 'json'));
    }
    // The heredoc's text is the file's text from contentStart on: its lines count from there.
    const base = outer.lineOf(node.contentStart) - 1;
    const decoded = sourceText(outer.path, node.value);
    const inner: SourceText = { ...decoded, lineOf: (offset) => base + decoded.lineOf(offset) };
    return parseYaml(inner)[0];
  } catch (error) {
    if (!(error instanceof SourceSyntaxError)) throw error;
    problems.push({ line, reason: `a string that looks like ${looksJson ? 'JSON' : 'YAML'} could not be read: ${error.message}` });
    return undefined;
  }
}
