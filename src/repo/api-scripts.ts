import { parseCode } from './code-tree.js';
import type { RepoContext } from './context.js';
import type { SourceText } from './source-text.js';
import type { FileAnalysis } from './terraform.js';
import { walkTree, type WalkScope } from './walk.js';

/** A script that talks to the service's REST API (any region's base URL, or a `/v1/<resource>` path). */
export function callsServiceApi(text: string): boolean {
  return /\bapi(?:\.us)?\.(?:getport|port)\.io\b|\/v1\/(?:blueprints|actions|pages|entities|webhooks|integration|teams)\b/.test(text);
}

/** JS/TS or Python that builds request bodies: its object literals are checked as API payloads. */
export function analyzeScript(source: SourceText, language: 'js' | 'python', ctx: RepoContext): FileAnalysis {
  const problems: FileAnalysis['problems'] = [];
  const scope: WalkScope = { ctx, syntax: language, problems };
  return { findings: walkTree(parseCode(source, language), 'payload', scope), problems };
}

/** A JSON payload file (a request body kept next to the scripts, `.port/resources/blueprints.json`). */
export function analyzeJsonPayload(source: SourceText, ctx: RepoContext): FileAnalysis {
  const problems: FileAnalysis['problems'] = [];
  const scope: WalkScope = { ctx, syntax: 'json', problems };
  return { findings: walkTree(parseCode(source, 'json'), 'payload', scope), problems };
}

/**
 * Shell scripts: the JSON bodies in single-quoted strings (`curl -d '{…}'`) and heredocs
 * (`<<EOF … EOF`) are read where they stand, so findings point at their own lines. Comments,
 * including commented-out curl calls, are skipped.
 */
export function analyzeShell(source: SourceText, ctx: RepoContext): FileAnalysis {
  const problems: FileAnalysis['problems'] = [];
  const scope: WalkScope = { ctx, syntax: 'json', problems };
  const findings = shellBodies(source.text).flatMap(({ start, end }) => walkTree(parseCode(source, 'json', start, end), 'payload', scope));
  return { findings, problems };
}

/** Ranges of single-quoted strings and heredoc bodies that hold a JSON object or array. */
export function shellBodies(text: string): { start: number; end: number }[] {
  const bodies: { start: number; end: number }[] = [];
  const looksJson = (start: number, end: number) => /^\s*[{[]/.test(text.slice(start, end));
  let pos = 0;
  let wordStart = true;
  while (pos < text.length) {
    const c = text[pos]!;
    if (c === '#' && wordStart) {
      while (pos < text.length && text[pos] !== '\n') pos++;
      continue;
    }
    if (c === "'") {
      const close = text.indexOf("'", pos + 1);
      if (close < 0) break;
      if (looksJson(pos + 1, close)) bodies.push({ start: pos + 1, end: close });
      pos = close + 1;
      wordStart = false;
      continue;
    }
    if (c === '"') {
      pos++;
      while (pos < text.length && text[pos] !== '"') pos += text[pos] === '\\' ? 2 : 1;
      pos++;
      wordStart = false;
      continue;
    }
    const heredoc = c === '<' ? /^<<-?\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\1[^\n]*\n/.exec(text.slice(pos, pos + 200)) : null;
    if (heredoc) {
      const start = pos + heredoc[0].length;
      const marker = new RegExp(`^[\\t ]*${heredoc[2]}[\\t ]*$`, 'm');
      const match = marker.exec(text.slice(start));
      const end = match ? start + match.index : text.length;
      if (looksJson(start, end)) bodies.push({ start, end });
      pos = match ? end + match[0].length : text.length;
      wordStart = true;
      continue;
    }
    wordStart = /[\s;|&(]/.test(c);
    pos++;
  }
  return bodies;
}
