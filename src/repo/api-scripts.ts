import type { FindingDraft } from '../model/finding.js';
import { tokenize, type CodeToken } from './code-tokens.js';
import { parseCode } from './code-tree.js';
import type { RepoContext } from './context.js';
import { emptyDocuments, findDocuments, type FileDocuments } from './file-resources.js';
import { byLine, entityTeamFinding, fileFinding } from './findings.js';
import { judgeFileResources } from './judge.js';
import type { Syntax } from './ownership-rewrite.js';
import { sourceText, type SourceText } from './source-text.js';
import type { FileAnalysis } from './terraform.js';
import { spanLine, type TreeNode } from './tree.js';
import { addEntity, addTeamValues, stateFact, type RepositoryFacts } from './repository-facts.js';
import { SYSTEM_ENTITY_BLUEPRINTS } from './repository-catalog.js';
import { judgeSite } from '../judge/decision-table.js';

/**
 * A script that talks to the service's REST API (any region's base URL, a `/v1/<resource>` path,
 * or the entities of a blueprint, `/blueprints/<id>/entities`, as clients with a configured base URL write it).
 */
export function callsServiceApi(text: string): boolean {
  // Each form holds one of these words: most code holds none, told by plain searches (issue 33).
  if (!text.includes('port.io') && !text.includes('/v1/') && !text.includes('/blueprints/')) return false;
  return /\bapi(?:\.us)?\.(?:getport|port)\.io\b|\/v1\/(?:blueprints|actions|pages|entities|webhooks|integration|teams)\b|\/blueprints\/[^/\s'"`]+\/entities\b/.test(text);
}

/** JS/TS or Python that builds request bodies: its object literals are read as the resources they send. */
export function analyzeScript(source: SourceText, language: 'js' | 'python', ctx: RepoContext): FileAnalysis {
  const problems: FileAnalysis['problems'] = [];
  const documents = findDocuments(parseCode(source, language), { camelCase: false, problems });
  if (ctx.gathering) gatherSystemBlueprintCalls(ctx.gathering, source);
  const findings = judgeDocuments(documents, language, ctx, problems);
  const words = tokenize(source, language).filter((t): t is Word & CodeToken => t.type === 'ident' || t.type === 'string');
  const legacy = inheritanceWithoutOwnership(words, source, findings);
  return { findings: legacy ? [...findings, legacy] : findings, problems };
}

/** A JSON file: actions, pages, blueprints, permissions… (`.port/resources/actions.json`), or a request body. */
export function analyzeJsonPayload(source: SourceText, ctx: RepoContext): FileAnalysis {
  const found = jsonDocuments(source);
  const problems = [...found.problems];
  if (!found.documents) return { findings: [], problems };
  return { findings: judgeDocuments(found.documents, 'json', ctx, problems), problems };
}

/**
 * A JSON file's documents, found once for every pass that reads the file (issue 33), as its tree is
 * parsed once (parseCode): what is found does not depend on the org. None in a jq context sample.
 */
function jsonDocuments(source: SourceText): { documents?: FileDocuments; problems: FileAnalysis['problems'] } {
  let found = foundInJson.get(source);
  if (found) return found;
  const problems: FileAnalysis['problems'] = [];
  const top = parseCode(source, 'json');
  found = isJqContextSample(top) ? { problems } : { documents: findDocuments(top, { camelCase: false, problems }), problems };
  foundInJson.set(source, found);
  return found;
}

const foundInJson = new WeakMap<SourceText, { documents?: FileDocuments; problems: FileAnalysis['problems'] }>();

/** The top-level keys of the object jq expressions run on (actions, automations, mappings, policies). */
const JQ_CONTEXT_KEYS: ReadonlySet<string> = new Set(['trigger', 'entity', 'inputs', 'event', 'diff', 'action', 'run', 'payload', 'user', 'results', 'context', 'properties', 'relations']);

/**
 * A sample of the jq context (the docs' `{trigger, inputs, entity}`, an automation's `{event, diff}`):
 * what expressions read, not a resource to migrate, however its entity's team reads.
 */
function isJqContextSample(top: TreeNode): boolean {
  const root = top.kind === 'object' && top.entries.length === 0 && top.items.length === 1 ? top.items[0]! : top;
  if (root.kind !== 'object' || root.entries.length === 0) return false;
  const keys = root.entries.map((entry) => entry.key);
  return keys.every((key) => JQ_CONTEXT_KEYS.has(key)) && keys.some((key) => key === 'trigger' || key === 'event' || key === 'inputs' || key === 'entity');
}

/**
 * Shell scripts: the JSON bodies in single-quoted strings (`curl -d '{…}'`) and heredocs
 * (`<<EOF … EOF`) are read where they stand, so findings point at their own lines. Comments,
 * including commented-out curl calls, are skipped.
 */
export function analyzeShell(source: SourceText, ctx: RepoContext): FileAnalysis {
  const problems: FileAnalysis['problems'] = [];
  const documents = emptyDocuments();
  const bodies = shellBodies(source.text);
  // Issue 39: quotes that splice a shell word (`'…["'"$TEAM"'"]…'`) are read as the shell reads
  // them: gone, with the expansion inside the JSON string, offsets and lines kept.
  const glue = bodies.flatMap((body) => body.splices);
  const read = glue.length === 0 ? source : sourceText(source.path, blankAt(source.text, glue));
  for (const { start, end } of bodies) findDocuments(parseCode(read, 'json', start, end), { camelCase: false, problems }, documents);
  if (ctx.gathering) gatherSystemBlueprintCalls(ctx.gathering, source);
  // A rewrite over spliced text would drop the shell's quotes: the finding stands, its text to copy does not.
  const findings = judgeDocuments(documents, 'json', ctx, problems).map((finding) => {
    if (read === source || finding.rewrite === undefined || source.text.includes(finding.evidence)) return finding;
    const { rewrite: _rewrite, rewriteProof: _proof, ...rest } = finding;
    return rest;
  });
  const legacy = inheritanceWithoutOwnership(shellWords(source.text), source, findings);
  return { findings: legacy ? [...findings, legacy] : findings, problems };
}

/** A word of a script with its offsets: identifiers and strings of JS/Python, whole lines of shell. */
interface Word {
  value: string;
  start: number;
  end: number;
}

/** Shell lines outside comments (a commented-out curl call is not code). */
function shellWords(text: string): Word[] {
  const words: Word[] = [];
  const pattern = /^[^\n]*$/gm;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    if (!/^\s*#/.test(match[0])) words.push({ value: match[0], start: match.index, end: match.index + match[0].length });
    if (match[0].length === 0) pattern.lastIndex++;
  }
  return words;
}

export function judgeDocuments(documents: FileDocuments, syntax: Syntax, ctx: RepoContext, problems: FileAnalysis['problems']): FindingDraft[] {
  if (ctx.gathering) gatherDocuments(ctx.gathering, documents);
  const findings = judgeFileResources(documents.resources, { syntax, ctx, problems });
  for (const entity of documents.entities) {
    const found = entityTeamFinding(entity.team, ctx, entity.identifier && `entity ${entity.identifier}`, "the entity's `team`");
    if (found) findings.push(found);
  }
  return byLine(findings);
}

/** An API path on the entities of `_team` or `_user` (`/blueprints/_user/entities/…`). */
const SYSTEM_BLUEPRINT_PATH = /\/blueprints\/(_team|_user)\/entities\b/;

/**
 * The scan's first pass: a script that reads or writes the entities of `_team` or `_user` was
 * written for an org that has migrated, where those blueprints exist.
 */
function gatherSystemBlueprintCalls(facts: RepositoryFacts, source: SourceText): void {
  const call = SYSTEM_BLUEPRINT_PATH.exec(source.text);
  if (!call) return;
  facts.state.push({ file: source.path, line: source.lineOf(call.index), fact: `calls the API on the entities of ${call[1]}, which exists once the org has migrated`, migrated: true, strong: true });
}

/** The scan's first pass: the teams and system entities an export or a script's bodies hold. */
function gatherDocuments(facts: RepositoryFacts, documents: FileDocuments): void {
  for (const { record, span } of documents.teams) facts.teams.push({ record, file: span.source.path, line: spanLine(span) });
  for (const { blueprint, record } of documents.systemEntities) addEntity(facts, blueprint, record);
  // An entity of `_team` or `_user`, kept or sent, exists only in an org that has migrated (one fact per blueprint and file).
  const said = new Set<string>();
  for (const { blueprint, span } of documents.systemWrites) {
    if (said.has(blueprint)) continue;
    said.add(blueprint);
    facts.state.push(stateFact(span, `holds an entity of ${blueprint}, which exists once the org has migrated`, true, true));
  }
  for (const { team, blueprint, identifier } of documents.entities) {
    const values = (team.value.kind === 'list' ? team.value.items : [team.value]).flatMap((value) => (value.kind === 'string' ? [value.value] : []));
    addTeamValues(facts, values, team.span);
    if (blueprint !== undefined && !SYSTEM_ENTITY_BLUEPRINTS.has(blueprint)) addEntity(facts, blueprint, { identifier: identifier ?? '?', team: values });
  }
}

/**
 * A script that reads or writes `teamInheritance` and never mentions `ownership`: after the
 * migration blueprints carry `ownership` instead, so whatever it does with inheritance stops
 * working. Comments do not count; a line already reported (a body the rules judged) is not repeated.
 */
function inheritanceWithoutOwnership(words: readonly Word[], source: SourceText, findings: readonly FindingDraft[]): FindingDraft | undefined {
  if (words.some((t) => /ownership/i.test(t.value))) return undefined;
  const first = words.find((t) => /\bteam_?inheritance\b/i.test(t.value));
  if (!first) return undefined;
  const line = `${source.path}:${source.lineOf(first.start)}`;
  if (findings.some((f) => f.location === line)) return undefined;
  const lineStart = source.text.lastIndexOf('\n', first.start) + 1;
  const lineEnd = source.text.indexOf('\n', first.start);
  return fileFinding({ source, start: lineStart, end: lineEnd < 0 ? source.text.length : lineEnd }, 'script', {
    category: 'external-ownership',
    reason: `The script uses teamInheritance and never handles ownership; after the migration blueprints have ownership and no teamInheritance, so what it reads is gone and what it writes is ignored.`,
    suggestion: 'Make the script read and write `ownership` ({type: "Inherited", path} or {type: "Direct"}) instead of teamInheritance.',
    verdict: judgeSite('script-team-inheritance'),
  });
}

/** Ranges of single-quoted strings and heredoc bodies that hold a JSON object or array. */
export function shellBodies(text: string): { start: number; end: number; splices: number[] }[] {
  const bodies: { start: number; end: number; splices: number[] }[] = [];
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
      const word = shellWord(text, pos);
      if (word === undefined) break;
      const close = text.indexOf("'", pos + 1);
      if (looksJson(pos + 1, close)) bodies.push({ start: pos + 1, end: word.end, splices: word.splices });
      pos = word.next;
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
      if (looksJson(start, end)) bodies.push({ start, end, splices: [] });
      pos = match ? end + match[0].length : text.length;
      wordStart = true;
      continue;
    }
    wordStart = /[\s;|&(]/.test(c);
    pos++;
  }
  return bodies;
}

/**
 * The shell word that starts with the single quote at `pos`: quoted and bare pieces with nothing
 * between them are one word (`'{"a": "'"$X"'"}'`). Its text ends before its last closing single
 * quote; `splices` are the quotes inside it that only join pieces. Undefined when a quote is not closed.
 */
function shellWord(text: string, pos: number): { end: number; next: number; splices: number[] } | undefined {
  const quotes: number[] = [];
  let at = pos;
  let end = pos;
  while (at < text.length && !/[\s;|&()<>]/.test(text[at]!)) {
    if (text[at] === "'") {
      const close = text.indexOf("'", at + 1);
      if (close < 0) return undefined;
      quotes.push(at, close);
      end = close;
      at = close + 1;
    } else if (text[at] === '"') {
      let close = at + 1;
      while (close < text.length && text[close] !== '"') close += text[close] === '\\' ? 2 : 1;
      if (close >= text.length) return undefined;
      quotes.push(at, close);
      at = close + 1;
      end = at;
    } else {
      at++;
      end = at;
    }
  }
  // One single-quoted piece: its text, as before. Pieces spliced: every quote between the first and the last.
  return { end: quotes.length === 2 ? quotes[1]! : end, next: at, splices: quotes.filter((q) => q > pos && q < end) };
}

/** The text with a space at each offset (UTF-16 code units, as `indexOf` gives them), its length kept. */
function blankAt(text: string, offsets: readonly number[]): string {
  const units = text.split('');
  for (const offset of offsets) units[offset] = ' ';
  return units.join('');
}
