import { tokenize, type CodeToken } from './code-tokens.js';
import { documentValue, parseCode, refuseCutShort } from './code-tree.js';
import { emptyDocuments, findDocuments, mayHoldDocuments, SYSTEM_ENTITY_BLUEPRINTS, type FileDocuments } from './file-resources.js';
import { viewed, type FileSite, type FileSites, type ReadContext } from './file-sites.js';
import { entityTeamSite, fileFinding, RUN_TIME_MARK } from './findings.js';
import type { Syntax } from './ownership-rewrite.js';
import { sourceText, type SourceText } from './source-text.js';
import type { Problems } from './tree-to-json.js';
import { spanLine, type TreeNode } from './tree.js';
import { addEntity, addTeamValues, stateFact, type RepositoryFacts } from './repository-facts.js';
import { parsedJson } from '../parse-json.js';

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
export function analyzeScript(source: SourceText, language: 'js' | 'python', ctx: ReadContext): FileSites {
  const problems: Problems = [];
  const documents = findDocuments(parseCode(source, language), { camelCase: false, problems });
  if (ctx.gathering) gatherSystemBlueprintCalls(ctx.gathering, source);
  const sites = documentSites(documents, language, ctx);
  const words = tokenize(source, language).filter((t): t is Word & CodeToken => t.type === 'ident' || t.type === 'string');
  return { sites: [...sites, ...inheritanceWithoutOwnership(words, source)], problems };
}

/** A JSON file: actions, pages, blueprints, permissions… (`.port/resources/actions.json`), or a request body. */
export function analyzeJsonPayload(source: SourceText, ctx: ReadContext): FileSites {
  const found = jsonDocuments(source);
  const problems = [...found.problems];
  if (!found.documents) return { sites: [], problems };
  return { sites: documentSites(found.documents, 'json', ctx), problems };
}

/**
 * A JSON file's documents, found once for every pass that reads the file (issue 33), as its tree is
 * parsed once (parseCode): what is found does not depend on the org. None in a jq context sample.
 */
function jsonDocuments(source: SourceText): { documents?: FileDocuments; problems: Problems } {
  let found = foundInJson.get(source);
  if (found) return found;
  const problems: Problems = [];
  // Strict JSON that names no key a document needs holds nothing to report (the file parser reads
  // strict JSON alike); anything else is read loosely (comments, trailing commas), unless cut short.
  const value = parsedJson(source.text);
  if (value !== undefined && !mayHoldDocuments(value)) {
    found = { problems };
  } else {
    const top = parseCode(source, 'json');
    if (value === undefined) refuseCutShort(source);
    found = isJqContextSample(top) ? { problems } : { documents: findDocuments(top, { camelCase: false, problems }), problems };
  }
  foundInJson.set(source, found);
  return found;
}

const foundInJson = new WeakMap<SourceText, { documents?: FileDocuments; problems: Problems }>();

/** The top-level keys of the object jq expressions run on (actions, automations, mappings, policies). */
const JQ_CONTEXT_KEYS: ReadonlySet<string> = new Set(['trigger', 'entity', 'inputs', 'event', 'diff', 'action', 'run', 'payload', 'user', 'results', 'context', 'properties', 'relations']);

/**
 * A sample of the jq context (the docs' `{trigger, inputs, entity}`, an automation's `{event, diff}`):
 * what expressions read, not a resource to migrate, however its entity's team reads.
 */
function isJqContextSample(top: TreeNode): boolean {
  const root = top.kind === 'object' ? documentValue(top) : top;
  if (root.kind !== 'object' || root.entries.length === 0) return false;
  const keys = root.entries.map((entry) => entry.key);
  return keys.every((key) => JQ_CONTEXT_KEYS.has(key)) && keys.some((key) => key === 'trigger' || key === 'event' || key === 'inputs' || key === 'entity');
}

/**
 * Shell scripts: the JSON bodies in single-quoted strings (`curl -d '{…}'`) and heredocs
 * (`<<EOF … EOF`) are read where they stand, so findings point at their own lines. Comments,
 * including commented-out curl calls, are skipped.
 */
export function analyzeShell(source: SourceText, ctx: ReadContext): FileSites {
  const problems: Problems = [];
  const documents = emptyDocuments();
  const bodies = shellBodies(source.text);
  // Issue 39: quotes that splice a shell word (`'…["'"$TEAM"'"]…'`) are read as the shell reads
  // them: gone, with the expansion inside the JSON string, offsets and lines kept.
  const changed = bodies.some((body) => body.splices.length > 0 || body.expansions.length > 0);
  const read = changed ? sourceText(source.path, asTheShellReads(source.text, bodies)) : source;
  for (const { start, end } of bodies) findDocuments(parseCode(read, 'json', start, end), { camelCase: false, problems }, documents);
  if (ctx.gathering) gatherSystemBlueprintCalls(ctx.gathering, source);
  // A rewrite over spliced text would drop the shell's quotes: the finding stands, its text to copy does not.
  const sites = documentSites(documents, 'json', ctx);
  return { sites: [...(read === source ? sites : viewed(sites, { spliced: source })), ...inheritanceWithoutOwnership(shellWords(source.text), source)], problems };
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

/** The resources and entities a script's or a JSON file's bodies send, as sites. */
export function documentSites(documents: FileDocuments, syntax: Syntax, ctx: ReadContext): FileSite[] {
  if (ctx.gathering) gatherDocuments(ctx.gathering, documents);
  const sites: FileSite[] = documents.resources.length > 0 ? [{ kind: 'resources', resources: documents.resources, syntax }] : [];
  for (const entity of documents.entities) sites.push(...entityTeamSite(entity.team, entity.identifier && `entity ${entity.identifier}`, "the entity's `team`"));
  return sites;
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
function inheritanceWithoutOwnership(words: readonly Word[], source: SourceText): FileSite[] {
  if (words.some((t) => /ownership/i.test(t.value))) return [];
  const first = words.find((t) => /\bteam_?inheritance\b/i.test(t.value));
  if (!first) return [];
  const lineStart = source.text.lastIndexOf('\n', first.start) + 1;
  const lineEnd = source.text.indexOf('\n', first.start);
  const draft = fileFinding({ source, start: lineStart, end: lineEnd < 0 ? source.text.length : lineEnd }, 'script', {
    category: 'external-ownership',
    reason: `The script uses teamInheritance and never handles ownership; after the migration blueprints have ownership and no teamInheritance, so what it reads is gone and what it writes is ignored.`,
    suggestion: 'Make the script read and write `ownership` ({type: "Inherited", path} or {type: "Direct"}) instead of teamInheritance.',
    settles: 'script-team-inheritance',
  });
  // A line already reported (a body the rules judged) is not reported again.
  return [{ kind: 'settled', draft, unlessReported: draft.location }];
}

/**
 * A JSON body of a shell script: its range, the offsets the shell removes (quotes that only join
 * pieces, backslashes that escape), and the offsets of `$` it expands when the script runs.
 */
interface ShellBody {
  start: number;
  end: number;
  splices: number[];
  expansions: number[];
}

/** Ranges of quoted shell words and heredoc bodies that hold a JSON object or array. */
function shellBodies(text: string): ShellBody[] {
  const bodies: ShellBody[] = [];
  const looksJson = (start: number, end: number) => /^\s*[{[]/.test(text.slice(start, end));
  let pos = 0;
  let wordStart = true;
  while (pos < text.length) {
    const c = text[pos]!;
    if (c === '#' && wordStart) {
      while (pos < text.length && text[pos] !== '\n') pos++;
      continue;
    }
    if (c === "'" || c === '"') {
      const word = shellWord(text, pos);
      if (word === undefined) break;
      if (looksJson(word.body.start, word.body.end)) bodies.push(word.body);
      pos = word.next;
      wordStart = false;
      continue;
    }
    const heredoc = c === '<' ? /^<<-?\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\1[^\n]*\n/.exec(text.slice(pos, pos + 200)) : null;
    if (heredoc) {
      const start = pos + heredoc[0].length;
      const marker = new RegExp(`^[\\t ]*${heredoc[2]}[\\t ]*$`, 'm');
      const match = marker.exec(text.slice(start));
      const end = match ? start + match.index : text.length;
      // A quoted marker keeps the body as written; a bare one expands it as double quotes do.
      const body: ShellBody = { start, end, splices: [], expansions: [] };
      if (heredoc[1] === '') readExpanding(text, start, end, body, /[$`\\\n]/);
      if (looksJson(start, end)) bodies.push(body);
      pos = match ? end + match[0].length : text.length;
      wordStart = true;
      continue;
    }
    wordStart = /[\s;|&(]/.test(c);
    pos++;
  }
  return bodies;
}

/** A piece of a shell word: single-quoted, double-quoted or bare, with its quotes' offsets (bare: none). */
interface Piece {
  kind: "'" | '"' | 'bare';
  start: number;
  end: number;
}

/**
 * The shell word that starts with the quote at `pos`: quoted and bare pieces with nothing between
 * them are one word (`'{"a": "'"$X"'"}'`). Its body runs from inside its first quote to before its
 * last; the quotes between only join pieces, except a double-quoted piece that stands where JSON
 * wants a value (`'{"team": '"$T"'}'`): its quotes are read as the JSON string it fills. Undefined
 * when a quote is not closed.
 */
function shellWord(text: string, pos: number): { body: ShellBody; next: number } | undefined {
  const pieces: Piece[] = [];
  let at = pos;
  while (at < text.length && !/[\s;|&()<>]/.test(text[at]!)) {
    const quote = text[at]!;
    if (quote === "'" || quote === '"') {
      let close = at + 1;
      if (quote === "'") close = text.indexOf("'", close);
      else while (close < text.length && text[close] !== '"') close += text[close] === '\\' ? 2 : 1;
      if (close < 0 || close >= text.length) return undefined;
      pieces.push({ kind: quote, start: at + 1, end: close });
      at = close + 1;
    } else {
      const start = at;
      while (at < text.length && !/[\s;|&()<>'"]/.test(text[at]!)) at += text[at] === '\\' ? 2 : 1;
      pieces.push({ kind: 'bare', start, end: Math.min(at, text.length) });
    }
  }
  const first = pieces[0]!;
  const last = pieces[pieces.length - 1]!;
  const body: ShellBody = { start: first.start, end: last.end, splices: [], expansions: [] };
  let inString = false;
  for (const [index, piece] of pieces.entries()) {
    const quoted = piece.kind !== 'bare';
    const fillsValue = piece.kind === '"' && index > 0 && !inString && !text.slice(piece.start, piece.end).includes('"');
    if (quoted && index > 0 && !fillsValue) body.splices.push(piece.start - 1);
    if (quoted && index < pieces.length - 1 && !fillsValue) body.splices.push(piece.end);
    if (piece.kind !== "'") readExpanding(text, piece.start, piece.end, body, piece.kind === '"' ? /[$`"\\\n]/ : /./s);
    if (!fillsValue) inString = jsonStringState(text, piece.start, piece.end, body.splices, inString);
  }
  return { body, next: at };
}

/**
 * Where the shell changes text it expands (double quotes, bare words, heredocs with a bare marker):
 * a backslash before one of `escapable` is removed, and each `$` that
 * is not escaped starts an expansion filled in when the script runs.
 */
function readExpanding(text: string, start: number, end: number, body: ShellBody, escapable: RegExp): void {
  for (let at = start; at < end; at++) {
    if (text[at] === '\\' && at + 1 < end && escapable.test(text[at + 1]!)) {
      // The newline after a backslash stays: the JSON reads it as space, and lines keep their numbers.
      body.splices.push(at);
      at++;
    } else if (text[at] === '$' && /[A-Za-z_{(0-9@*#?!-]/.test(text[at + 1] ?? '')) body.expansions.push(at);
  }
}

/** Whether the JSON text of a piece ends inside a string, given where it starts; removed offsets are skipped. */
function jsonStringState(text: string, start: number, end: number, removed: readonly number[], inString: boolean): boolean {
  const skip = new Set(removed);
  for (let at = start; at < end; at++) {
    if (skip.has(at)) continue;
    if (inString && text[at] === '\\') {
      do at++;
      while (skip.has(at));
    } else if (text[at] === '"') inString = !inString;
  }
  return inString;
}

/**
 * The text as the shell hands it on, each line kept in its place and length (UTF-16 code units, as
 * `indexOf` gives them, so findings keep their lines): on a line of a body, what the shell removes
 * is taken out and the line padded with spaces at its end, outside any JSON string (JSON has none
 * across lines); RUN_TIME_MARK stands where the shell expands.
 */
function asTheShellReads(text: string, bodies: readonly ShellBody[]): string {
  const units = text.split('');
  for (const body of bodies) {
    const removed = new Set(body.splices);
    for (const offset of body.expansions) units[offset] = RUN_TIME_MARK;
    let lineStart = body.start;
    while (lineStart < body.end) {
      const newline = text.indexOf('\n', lineStart);
      const lineEnd = newline < 0 || newline > body.end ? body.end : newline;
      const kept: string[] = [];
      for (let at = lineStart; at < lineEnd; at++) if (!removed.has(at)) kept.push(units[at]!);
      for (let at = lineStart; at < lineEnd; at++) units[at] = kept[at - lineStart] ?? ' ';
      lineStart = lineEnd + 1;
    }
    if (body.expansions.length > 0) quoteBareExpansions(units, body.start, body.end);
  }
  return units.join('');
}

/**
 * An expansion where JSON wants a value (`"team": $teams`) splices in whatever the variable holds:
 * read as a string of its own, so the body stays JSON and the value is one the script fills in. The
 * two quotes take two spaces of the line's padding (the backslashes taken out) when it has them;
 * else the name gives up its last two characters, and one of two characters (`$t`) is read as `""`.
 */
function quoteBareExpansions(units: string[], start: number, end: number): void {
  let inString = false;
  for (let at = start; at < end; at++) {
    const unit = units[at]!;
    if (inString) {
      if (unit === '\\') at++;
      else if (unit === '"') inString = false;
    } else if (unit === '"') inString = true;
    else if (unit === RUN_TIME_MARK) {
      const stop = expansionEnd(units, at, end);
      const newline = units.indexOf('\n', stop);
      const lineEnd = newline < 0 || newline > end ? end : newline;
      if (lineEnd - 2 >= stop && units[lineEnd - 1] === ' ' && units[lineEnd - 2] === ' ') {
        units.splice(lineEnd - 2, 2);
        units.splice(stop, 0, '"');
        units.splice(at, 0, '"');
        at = stop + 1;
      } else {
        const inner = units.slice(at + 1, stop - 1);
        units.splice(at, stop - at, ...(stop - at >= 3 ? ['"', RUN_TIME_MARK, ...inner.slice(0, stop - at - 3), '"'] : ['"', '"']));
        at = stop - 1;
      }
    }
  }
}

/** Where the expansion at `at` ends: `${…}` and `$(…)` at their closing bracket, `$name` after its name, `$1` after one character. */
function expansionEnd(units: readonly string[], at: number, end: number): number {
  const open = units[at + 1];
  if (open === '{' || open === '(') {
    const close = open === '{' ? '}' : ')';
    let depth = 0;
    for (let pos = at + 1; pos < end; pos++) {
      if (units[pos] === open) depth++;
      else if (units[pos] === close && --depth === 0) return pos + 1;
    }
    return end;
  }
  let pos = at + 1;
  if (/[A-Za-z_]/.test(open ?? '')) while (pos < end && /\w/.test(units[pos]!)) pos++;
  else pos++;
  return Math.min(pos, end);
}
