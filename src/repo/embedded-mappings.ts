import { SourceSyntaxError, sourceText, type SourceText } from './source-text.js';
import type { Problems } from './tree-to-json.js';
import { findEntry, spanLine, treeChildren, type ObjectNode, type StringNode, type TreeNode } from './tree.js';
import { parseYaml } from './yaml-tree.js';

/**
 * A YAML file that may hold an integration's mapping somewhere inside it: the Kubernetes exporter's
 * Helm values (`configMap.config: |` holding its `config.yaml`, or `resources:` under a subchart's
 * key), an exporter's own `config.yaml`, an Argo CD application's `helm.values`. Only files that
 * name a mapping's keys are parsed at all.
 */
export const MAPPING_HINT = /\bmappings\s*:/;

/** A mapping configuration: `resources:` items with `port.entity.mappings`, as the integrations read it. */
function isMappingConfig(node: ObjectNode): boolean {
  const resources = findEntry(node, 'resources')?.value;
  return resources?.kind === 'list' && resources.items.some((item) => item.kind === 'object' && findEntry(item, 'port')?.value.kind === 'object');
}

/** How deep strings that hold YAML are read into (values inside values inside an application): further is not a config. */
const MAX_EMBEDDING = 3;

/**
 * Every mapping configuration in the documents: an object holding one is taken whole; other
 * objects and lists are looked through; a block string that holds YAML (`config: |`) is read as
 * YAML at its own lines, so findings point at the file's lines.
 */
export function mappingConfigs(documents: readonly TreeNode[], problems: Problems, depth = 0): ObjectNode[] {
  const found: ObjectNode[] = [];
  const visit = (node: TreeNode): void => {
    if (node.kind === 'object' && isMappingConfig(node)) found.push(node);
    else if (node.kind === 'string' && depth < MAX_EMBEDDING && MAPPING_HINT.test(node.value) && /(^|\n)\s*resources\s*:/.test(node.value)) {
      const embedded = embeddedYaml(node, problems);
      if (embedded) found.push(...mappingConfigs(embedded, problems, depth + 1));
    } else for (const child of treeChildren(node)) visit(child);
  };
  for (const document of documents) visit(document);
  return found;
}

/**
 * The text of a YAML string as a source of its own whose lines are the file's. The value's first
 * written line is looked for in the file from its node's line on (a list item, `- |`, shares its
 * parent's line in the tree); failing that, a block (`key: |`) starts on the line after its key and
 * a quoted string on its key's line. Its lines follow one for one (only their indentation is gone),
 * so what is found in it points at the file's lines.
 */
export function blockSource(node: StringNode): SourceText {
  const keyLine = spanLine(node.span);
  const decoded = sourceText(node.span.source.path, node.value);
  const text = node.span.source.text;
  const lines = node.value.split('\n');
  const index = lines.findIndex((line) => line.trim() !== '');
  const at = index < 0 ? -1 : text.indexOf(lines[index]!.trim(), node.span.start);
  const lineEnd = text.indexOf('\n', node.span.start);
  const block = () => /:\s*[|>][-+0-9]*\s*(?:#.*)?$/.test(text.slice(node.span.start, lineEnd < 0 ? text.length : lineEnd));
  const first = at >= 0 ? node.span.source.lineOf(at) - index - 1 : block() ? keyLine : keyLine - 1;
  return { ...decoded, lineOf: (offset) => first + decoded.lineOf(offset) };
}

/**
 * The YAML a block string holds, located in the file: a `key: |` block's first line is the line
 * after its key, and its lines follow one for one (only their indentation is gone).
 */
function embeddedYaml(node: StringNode, problems: Problems): TreeNode[] | undefined {
  const keyLine = spanLine(node.span);
  try {
    return parseYaml(blockSource(node));
  } catch (error) {
    if (!(error instanceof SourceSyntaxError)) throw error;
    problems.push({ line: keyLine, reason: `a string that looks like a mapping configuration could not be read as YAML: ${error.message}` });
    return undefined;
  }
}
