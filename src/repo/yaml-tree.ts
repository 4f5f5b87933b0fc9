import yaml from 'js-yaml';
import { yamlExpansionProblem } from '../yaml-expansion.js';
import { SourceSyntaxError, type SourceText } from './source-text.js';
import type { ObjectNode, Span, TreeNode } from './tree.js';

interface KeyLine {
  line: number;
  indent: number;
}

/**
 * Read YAML with js-yaml and give every key the line it is written on. js-yaml keeps no
 * positions, so block-style keys are matched to lines by their key path, in document order;
 * a key it cannot place (flow style, `{a: b}`) takes the line of the nearest placed parent.
 * Spans cover whole lines: YAML rewrites are made on the text of those lines.
 */
export function parseYaml(source: SourceText): TreeNode[] {
  let documents: unknown[];
  try {
    documents = [];
    yaml.loadAll(source.text, (document) => documents.push(document), { filename: source.path });
  } catch (error) {
    if (error instanceof yaml.YAMLException) {
      const line = error.mark ? error.mark.line + 1 : 1;
      const column = error.mark ? error.mark.column + 1 : undefined;
      throw new SourceSyntaxError(`not valid YAML: ${error.reason}`, line, column);
    }
    throw error;
  }
  for (const document of documents) {
    const problem = yamlExpansionProblem(document, source.text);
    if (problem !== undefined) throw new SourceSyntaxError(problem, 1);
  }
  const lines = source.text.split('\n');
  const index = indexKeyLines(lines);
  const used = new Map<string, number>();
  const lineStarts: number[] = [];
  let offset = 0;
  for (const line of lines) {
    lineStarts.push(offset);
    offset += line.length + 1;
  }
  const lineSpan = (first: number, last: number): Span => ({
    source,
    start: lineStarts[first - 1] ?? 0,
    end: (lineStarts[last - 1] ?? 0) + (lines[last - 1]?.length ?? 0),
  });

  const convert = (value: unknown, path: string, line: number, lastLine: number): TreeNode => {
    const span = lineSpan(line, lastLine);
    if (typeof value === 'string') {
      return { kind: 'string', value, quote: 'line', exact: false, contentStart: span.start, contentEnd: span.end, span };
    }
    if (Array.isArray(value)) return { kind: 'list', items: value.map((item) => convert(item, path, line, lastLine)), span };
    if (value !== null && typeof value === 'object') {
      const object: ObjectNode = { kind: 'object', entries: [], items: [], span };
      for (const [key, child] of Object.entries(value)) {
        const childPath = `${path}/${key}`;
        const placed = nextKeyLine(index, used, childPath);
        const keyLine = placed?.line ?? line;
        const endLine = placed ? blockEnd(lines, placed) : lastLine;
        object.entries.push({ key, keySpan: lineSpan(keyLine, keyLine), value: convert(child, childPath, keyLine, endLine), span: lineSpan(keyLine, endLine) });
      }
      return object;
    }
    return { kind: 'other', span, parts: [] };
  };
  return documents.map((document) => convert(document, '', 1, 1));
}

// Linear on any line (issue 16): `(?=(x))\1` matches x once and never gives part of it back (an
// atomic group), and the plain key runs greedily to its first `:` or `#` with nothing after it
// that could also take its characters. Trailing spaces of a plain key are trimmed by the caller.
const KEY_LINE = /^(?=(\s*))\1(?=((?:-\s+)*))\2(?:"([^"]*)"\s*|'([^']*)'\s*|([^\s#'"{[\]][^:#]*)):(?:\s|$)/;

/** Each block-style key's path (`/resources/port/entity/mappings/team`), with its lines in order. */
function indexKeyLines(lines: readonly string[]): Map<string, KeyLine[]> {
  const index = new Map<string, KeyLine[]>();
  const stack: { indent: number; key: string }[] = [];
  lines.forEach((text, i) => {
    if (/^\s*(#|$)/.test(text) || /^(---|\.\.\.)\s*$/.test(text)) {
      if (/^---/.test(text)) stack.length = 0;
      return;
    }
    const match = KEY_LINE.exec(text);
    const leading = /^\s*/.exec(text)![0].length;
    if (!match) {
      while (stack.length > 0 && stack[stack.length - 1]!.indent >= leading && /^\s*-/.test(text)) stack.pop();
      return;
    }
    const indent = match[1]!.length + match[2]!.length;
    const key = (match[3] ?? match[4] ?? match[5] ?? '').trim();
    while (stack.length > 0 && stack[stack.length - 1]!.indent >= indent) stack.pop();
    stack.push({ indent, key });
    const path = `/${stack.map((s) => s.key).join('/')}`;
    const list = index.get(path) ?? [];
    list.push({ line: i + 1, indent });
    index.set(path, list);
  });
  return index;
}

function nextKeyLine(index: Map<string, KeyLine[]>, used: Map<string, number>, path: string): KeyLine | undefined {
  const n = used.get(path) ?? 0;
  const found = index.get(path)?.[n];
  if (found) used.set(path, n + 1);
  return found;
}

/** The last line of a key's value: following lines indented deeper (or list items at the same indent). */
function blockEnd(lines: readonly string[], key: KeyLine): number {
  let last = key.line;
  for (let i = key.line; i < lines.length; i++) {
    const text = lines[i]!;
    if (/^\s*(#.*)?$/.test(text)) continue;
    const indent = /^\s*/.exec(text)![0].length;
    const sameIndentItem = indent === key.indent && /^\s*-\s/.test(text) && !/^\s*-\s/.test(lines[key.line - 1]!.slice(key.indent));
    if (indent > key.indent || sameIndentItem) last = i + 1;
    else break;
  }
  return last;
}
