import { parseCode } from '../repo/code-tree.js';
import { sourceText } from '../repo/source-text.js';
import { findEntry, stringValue, type Entry, type ObjectNode } from '../repo/tree.js';
import type { TextEdit } from './unified-diff.js';

/** What port_system_blueprint / SystemBlueprint accept (docs/repository-scans.md): the rest goes. */
const SYSTEM_ATTRIBUTES = new Set(['identifier', 'properties', 'relations', 'mirrorproperties', 'calculationproperties', 'includeinglobalsearch']);
const keep = (key: string) => SYSTEM_ATTRIBUTES.has(key.replace(/[_$-]/g, '').toLowerCase());

/**
 * `resource "port_blueprint" "team" { … }` for `_team`/`_user` at `at`: the edits that make it a
 * port_system_blueprint with only the attributes it accepts, and import it instead of creating it.
 * A `removed` block keeps Terraform from deleting the blueprint under its old address.
 */
export function terraformSystemBlueprintEdits(path: string, text: string, at: number): TextEdit[] | undefined {
  const top = parseCode(sourceText(path, text), 'hcl');
  const entry = top.entries.find((e) => e.key === 'resource' && e.span.start === at && e.value.kind === 'object');
  const block = entry?.value as ObjectNode | undefined;
  const [type, name] = block?.labels ?? [];
  const identifier = block && stringValue(findEntry(block, 'identifier')?.value);
  if (!entry || !block || type !== 'port_blueprint' || name === undefined || identifier === undefined) return undefined;
  const headerEnd = text.indexOf('{', entry.span.start) + 1;
  const header = text.slice(entry.span.start, headerEnd);
  const edits: TextEdit[] = [{ start: entry.span.start, end: headerEnd, text: header.replace('"port_blueprint"', '"port_system_blueprint"') }];
  for (const attribute of block.entries) if (!keep(attribute.key)) edits.push(wholeLines(text, attribute));
  const importBlock =
    `\n\n# ${identifier} is created by the migration: import it, and forget the old address without deleting the blueprint (Terraform ≥ 1.7).\n` +
    `import {\n  to = port_system_blueprint.${name}\n  id = "${identifier}"\n}\n\nremoved {\n  from = port_blueprint.${name}\n\n  lifecycle {\n    destroy = false\n  }\n}`;
  edits.push({ start: entry.span.end, end: entry.span.end, text: importBlock });
  return edits;
}

/** The lines an attribute is written on, with their newline, when nothing else shares them; else the attribute alone. */
function wholeLines(text: string, entry: Entry): TextEdit {
  const lineStart = text.lastIndexOf('\n', entry.span.start - 1) + 1;
  let end = entry.span.end;
  if (text[end] === ',') end++;
  const newline = text.indexOf('\n', end);
  const lineEnd = newline < 0 ? text.length : newline + 1;
  if (text.slice(lineStart, entry.span.start).trim() === '' && text.slice(end, lineEnd).trim() === '') return { start: lineStart, end: lineEnd, text: '' };
  // Inline (`{ identifier: "_user", title: "User" }`): the attribute with the comma before it when it
  // is the last one, else with its own comma and the space after it.
  let next = end;
  while (text[next] === ' ') next++;
  if (text[next] === '}' || text[next] === ')') {
    let start = entry.span.start;
    while (start > 0 && /[\s,]/.test(text[start - 1]!)) start--;
    return { start, end: entry.span.end, text: '' };
  }
  return { start: entry.span.start, end: next, text: '' };
}

/** `new port.Blueprint("users", {…})` for `_team`/`_user`: SystemBlueprint, its accepted attributes, imported. */
export function pulumiSystemBlueprintEdits(path: string, text: string, at: number, rewrite: string): TextEdit[] | undefined {
  const python = path.endsWith('.py');
  const top = parseCode(sourceText(path, text), python ? 'python' : 'js');
  let found: { call: import('../repo/tree.js').CallNode; args: ObjectNode } | undefined;
  const visit = (node: import('../repo/tree.js').TreeNode): void => {
    if (found) return;
    if (node.kind === 'call' && node.calleeSpan.start === at) {
      const args = node.args.entries.length > 0 ? node.args : node.args.items.find((item): item is ObjectNode => item.kind === 'object');
      if (args) found = { call: node, args };
      return;
    }
    if (node.kind === 'call') visit(node.args);
    if (node.kind === 'object') {
      for (const entry of node.entries) visit(entry.value);
      for (const item of node.items) visit(item);
    }
    if (node.kind === 'list' || node.kind === 'other') for (const item of node.kind === 'list' ? node.items : node.parts) visit(item);
  };
  visit(top);
  if (!found) return undefined;
  const { call, args } = found;
  const identifier = stringValue(findEntry(args, 'identifier')?.value);
  if (identifier === undefined) return undefined;
  const edits: TextEdit[] = [{ start: call.calleeSpan.start, end: call.calleeSpan.end, text: rewrite }];
  for (const entry of args.entries) if (!keep(entry.key)) edits.push(wholeLines(text, entry));
  const positional = call.args.items.filter((item) => item.kind === 'object').length;
  if (!python && args !== call.args && positional === 1 && call.args.items.length === 2) {
    // The resource exists already: `import` adopts it into the stack instead of creating it.
    edits.push({ start: args.span.end, end: args.span.end, text: `, { import: ${JSON.stringify(identifier)} }` });
  }
  return edits;
}
