import { partitionTeamValues, unknownIdentifierHint, type TeamDirectory } from '../catalog/teams.js';
import type { Category, FindingDraft, Verdict } from '../model/finding.js';
import type { SiteCase } from '../model/sites.js';
import type { FileDraft, FileSite } from './file-sites.js';
import { posix } from 'node:path';
import { splitFileLocation } from '../file-location.js';
import type { RepoContext } from './context.js';
import { isConfigurationReference, PICKS_AMONG_ARGUMENTS, resolveReference } from './terraform-values.js';
import { spanLocation, spanText, type Entry, type Span, type StringNode, type TreeNode } from './tree.js';
import { appendAll } from '../model/arrays.js';
import { hclString, jsTemplateLiteral, yamlScalar, yamlSingleQuoted } from './quote-value.js';
import { isTeamInput, passedInput } from './workflow-team-inputs.js';

/** Evidence longer than this is cut: the location points at the rest. */
const EVIDENCE_LIMIT = 600;

export interface FileFindingFields {
  category: Category;
  reason: string;
  suggestion: string;
  evidence?: string;
  rewrite?: string;
  rewriteProof?: FindingDraft['rewriteProof'];
  verdict?: Verdict;
  /** The row of the judge's site table that gives the verdict (src/repo/judge.ts sets it). */
  settles?: SiteCase;
  note?: string;
  /** The judge's answer is a line of the report's notes, not a finding (jq does not compile it). */
  noteOnly?: true;
}

/** A finding about a file: resource type `file`, location `path:line`. */
export function fileFinding(span: Span, resourceTitle: string | undefined, fields: FileFindingFields): FileDraft {
  const { category, reason, suggestion, evidence, ...optional } = fields;
  const draft: FileDraft = {
    category,
    resource: { type: 'file', identifier: span.source.path, ...(resourceTitle ? { title: resourceTitle } : {}) },
    location: spanLocation(span),
    evidence: evidence ?? snippet(span),
    reason,
    suggestion,
  };
  for (const [key, value] of Object.entries(optional)) if (value !== undefined) Object.assign(draft, { [key]: value });
  return draft;
}

/** Findings of one file in the order of its lines (the rules report by category). */
export function byLine<T extends FindingDraft>(findings: readonly T[]): T[] {
  return [...findings].sort((a, b) => splitFileLocation(a.location).line - splitFileLocation(b.location).line);
}

export function snippet(span: Span): string {
  const text = spanText(span).trim();
  return text.length > EVIDENCE_LIMIT ? `${text.slice(0, EVIDENCE_LIMIT)}…` : text;
}

export interface Edit {
  node: TreeNode;
  /** The new value: for strings the unquoted text (re-quoted like the original), otherwise the raw text. */
  value: string;
}

/**
 * The text of `span` with each edit applied: spliced at the node's offsets when the node sits
 * exactly in the same text, otherwise (YAML lines) by replacing the old value in the snippet.
 */
export function rewriteSpan(span: Span, edits: readonly Edit[]): string {
  const exact = edits.every((edit) => edit.node.span.source === span.source && !(edit.node.kind === 'string' && edit.node.quote === 'line'));
  if (!exact) {
    let text = spanText(span);
    for (const edit of edits) {
      const old = edit.node.kind === 'string' ? edit.node.value : spanText(edit.node.span);
      // A YAML line's value is quoted or bare (quoted anew when the new value would not read back as itself: `@platform`, `1234`, `yes`);
      // another string whose value is not in the text was written with escapes.
      if (edit.node.kind === 'string' && edit.node.quote === 'line') text = replaceQuoted(text, old, edit.value) ?? text.split(old).join(yamlScalar(edit.value));
      else text = edit.node.kind === 'string' && !text.includes(old) ? (replaceQuoted(text, old, edit.value) ?? text) : text.split(old).join(edit.value);
    }
    return text.trim();
  }
  const sorted = [...edits].sort((a, b) => b.node.span.start - a.node.span.start);
  let text = spanText(span);
  for (const edit of sorted) {
    const start = edit.node.span.start - span.start;
    const end = edit.node.span.end - span.start;
    const replacement = edit.node.kind === 'string' ? requote(edit.node, edit.value) : edit.value;
    text = text.slice(0, start) + replacement + text.slice(end);
  }
  return text.trim();
}

/**
 * A YAML value as it is written on its line, in double quotes (JSON's escapes: `"Ops \"Night\""`)
 * or single quotes (a quote doubled: `'Ops'' Day'`), replaced by the new value in the same quotes;
 * undefined when the line writes it in neither.
 */
function replaceQuoted(text: string, old: string, value: string): string | undefined {
  for (const quoted of [JSON.stringify, yamlSingleQuoted]) {
    if (text.includes(quoted(old))) return text.split(quoted(old)).join(quoted(value));
  }
  return undefined;
}

function requote(node: StringNode, value: string): string {
  if (node.quote === "'") return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (node.quote === '`') return jsTemplateLiteral(value);
  if (node.quote === 'heredoc') return value;
  return /\.(?:tf|hcl)$/.test(node.span.source.path) ? hclString(value) : JSON.stringify(value);
}

/** Team values of a file as the org's rules split them: titles (with the identifier when known) and unknown values. */
export function partitionFileTeamValues(teams: TeamDirectory, values: readonly string[]): { titles: { value: string; identifier?: string }[]; unknown: string[] } {
  const split = partitionTeamValues(teams, values);
  const titles = values.flatMap((value, index) => {
    if (split.titles.includes(value)) return [{ value, identifier: split.translated[index]! }];
    return split.pendingTitles.includes(value) ? [{ value }] : [];
  });
  return { titles, unknown: split.unknown };
}

/**
 * A team the workflow was given (`${{ inputs.team }}`, `github.event.inputs.…`, the payload the
 * service's action sends it): it passes on the team value it receives, titles before the migration
 * and identifiers after, which is what the entity's team must hold (decision table: a pass-through
 * into a team value is unaffected).
 */
export const PASSED_IN = /^\s*\$\{\{\s*(?:(?:github\.event\.)?inputs\.[\w-]+|fromJson\((?:github\.event\.)?inputs\.port_(?:payload|context)\)(?:\.[\w-]+)+)\s*\}\}\s*$/;

/**
 * Stands, in the text a shell script's body is read from, for a `$` the shell expands: the value
 * there is the script's when it runs (a private-use character, so no file's own text holds it).
 */
export const RUN_TIME_MARK = '\uE000';

/** A GitHub Actions expression (`${{ … }}`) in a value: what it yields is decided when the workflow runs. */
const WORKFLOW_EXPRESSION = /\$\{\{[\s\S]*\}\}/;

const PORT_TEAM_NAME = /^port_team\.[A-Za-z0-9_-]+\.name$/;
/** The provider's own identifier of a team: the team's identifier once migrated, null before (src/repo/scan.ts notes when to apply it). */
const PORT_TEAM_IDENTIFIER = /^port_team\.[A-Za-z0-9_-]+\.identifier$/;

/**
 * The team values an entry writes, one or a list (`teams = […]`, an entity's `team`): titles become
 * identifiers. Returns nothing when every value is already an identifier, or when no value is a
 * literal we can judge.
 */
export function teamValuesFinding(
  entry: Entry,
  category: Category,
  ctx: RepoContext,
  resourceTitle: string | undefined,
  what: string,
  /** References being resolved above this call: `local.a = [local.a]` is left unresolved, not followed forever. */
  resolving: ReadonlySet<string> = new Set(),
): FileDraft | undefined {
  const edits: Edit[] = [];
  const titles: string[] = [];
  const unknownIdentifier: string[] = [];
  const unknown: string[] = [];
  const unresolved: string[] = [];
  const expressions: string[] = [];
  const filledAtRunTime: string[] = [];
  const untypedInputs: string[] = [];
  const resolvedElsewhere: FileDraft[] = [];
  const computed: string[] = [];
  for (const node of valuesItMayHold([entry.value])) {
    if (node.kind === 'ref' && PORT_TEAM_NAME.test(node.path)) {
      edits.push({ node, value: node.path.replace(/\.name$/, '.identifier') });
      titles.push(node.path);
      continue;
    }
    if (node.kind === 'ref' && PORT_TEAM_IDENTIFIER.test(node.path)) continue;
    if (node.kind === 'ref' && isConfigurationReference(node.path)) {
      // `[var.team]`: judged where the value is written (a default, a *.tfvars line), which is what to change.
      const written = resolving.has(node.path) ? undefined : resolveReference(ctx.terraformValues?.get(posix.dirname(node.span.source.path)), node.path);
      const inner = written && teamValuesFinding(written, category, ctx, resourceTitle, what, new Set([...resolving, node.path]));
      if (inner) resolvedElsewhere.push(inner);
      // A variable or local whose value the scan could not see (no default, no *.tfvars, no locals entry).
      else if (!written) unresolved.push(node.path);
      continue;
    }
    // Terraform or a script computes it (`lower(var.team)`, a conditional, a variable of the script): what it yields is not seen here.
    if (isComputed(node)) {
      computed.push(spanText(node.span));
      continue;
    }
    // `{{getUserTeams()}}` already yields identifiers; `file://x` points at a file, it is not a team.
    if (node.kind !== 'string' || node.value.startsWith('{{') || node.value.startsWith('file://')) continue;
    // A shell expansion (`"$TEAM"`, `'"$teams"'`): the script fills it in when it runs.
    if (node.value.includes(RUN_TIME_MARK)) {
      filledAtRunTime.push(node.value.replaceAll(RUN_TIME_MARK, '$'));
      continue;
    }
    // A workflow's `${{ }}`: a team input it was given passes on as it is; any other is decided when it runs.
    if (WORKFLOW_EXPRESSION.test(node.value)) {
      const input = passedInput(node.value);
      if (input !== undefined && !isTeamInput(ctx.workflowTeamInputs, node.span.source.path, input)) untypedInputs.push(input);
      else if (!PASSED_IN.test(node.value)) expressions.push(node.value);
      continue;
    }
    const split = partitionFileTeamValues(ctx.teams, [node.value]);
    for (const title of split.titles) {
      titles.push(title.value);
      if (title.identifier !== undefined) edits.push({ node, value: title.identifier });
      else unknownIdentifier.push(title.value);
    }
    appendAll(unknown, split.unknown);
  }
  if (titles.length === 0 && unknown.length === 0 && unresolved.length === 0 && expressions.length === 0 && filledAtRunTime.length === 0 && untypedInputs.length === 0 && computed.length === 0) return resolvedElsewhere[0];

  const quoted = (list: string[]) => list.map((t) => (t.startsWith('port_team.') ? t : JSON.stringify(t))).join(', ');
  const reasons: string[] = [];
  if (titles.length > 0) reasons.push(`${what} holds ${titles.length === 1 ? 'the team title' : 'team titles'} ${quoted(titles)}, but after the migration team values are team identifiers`);
  if (unknown.length > 0) reasons.push(`${what} holds ${quoted(unknown)}, which is neither a known team title nor a known identifier`);
  if (unresolved.length > 0) reasons.push(`${what} takes ${unresolved.join(', ')}, whose value this scan cannot see (no default, no terraform.tfvars or *.auto.tfvars sets it)`);
  if (expressions.length > 0) reasons.push(`${what} takes ${expressions.join(', ')}, which the workflow decides when it runs`);
  if (filledAtRunTime.length > 0) reasons.push(`${what} takes ${filledAtRunTime.join(', ')}, which the script fills in when it runs`);
  if (untypedInputs.length > 0) reasons.push(untypedInputsReason(what, untypedInputs));
  if (computed.length > 0) reasons.push(`${what} takes ${computed.map((text) => `\`${text}\``).join(', ')}, which ${isHcl(entry.span.source.path) ? 'Terraform computes in a way this scan does not follow' : 'the script computes when it runs'}`);
  const written = edits.length > 0 ? rewriteSpan(entry.span, edits) : undefined;
  // A value the text could not be matched to (an escape the line rewrite does not know) gives the line back unchanged: no rewrite then.
  const rewrite = written !== undefined && written !== spanText(entry.span).trim() ? written : undefined;
  const hints: string[] = [];
  if (rewrite !== undefined) hints.push(`Write \`${rewrite}\``);
  else if (titles.length > 0) hints.push('Replace each team title with its team identifier');
  const ambiguous = unknownIdentifier.filter((title) => ctx.teams.byTitle.get(title)?.ambiguous);
  const pending = unknownIdentifier.filter((title) => !ambiguous.includes(title));
  if (pending.length > 0) hints.push(unknownIdentifierHint(pending));
  for (const title of ambiguous) hints.push(`${JSON.stringify(title)} is the title of ${ctx.teams.byTitle.get(title)!.ambiguous!.join(' and ')}: write the identifier of the team meant (no rewrite is offered through a title two teams share)`);
  if (unknown.length > 0) hints.push(`check whether ${quoted(unknown)} is a team title or identifier (pass --teams-map to tell)`);
  if (unresolved.length > 0) hints.push(`check that every value given to ${unresolved.join(', ')} (-var-file, -var, TF_VAR_…) is a team identifier`);
  if (untypedInputs.length > 0) hints.push(UNTYPED_INPUTS_HINT);
  if (computed.length > 0) hints.push(`check that ${computed.length === 1 ? 'it yields' : 'they yield'} team identifiers once the migration has run`);
  if (expressions.length > 0 || filledAtRunTime.length > 0) hints.push(`make sure ${expressions.length + filledAtRunTime.length === 1 ? 'it yields' : 'they yield'} team identifiers once the migration has run`);
  // The provider fills port_team.<x>.identifier only once the org has migrated: before, it empties the list.
  if (!ctx.migrated && titles.some((title) => PORT_TEAM_NAME.test(title))) hints.push('port_team.<name>.identifier is null until the org has migrated, so apply this with the migration, not before');
  return fileFinding(entry.span, resourceTitle, {
    category,
    reason: `${reasons.join('; ')}.`,
    suggestion: `${hints.join('; ')}.`,
    settles: titles.length === 0 && untypedInputs.length > 0 ? 'untyped-workflow-input' : titles.length > 0 ? 'title-literals' : 'unknown-literals',
    ...(rewrite !== undefined ? { rewrite } : {}),
  });
}

const isHcl = (path: string): boolean => /\.(tf|tfvars)$/.test(path);
const isProgram = (path: string): boolean => /\.(py|[cm]?[jt]sx?)$/.test(path);

/** Literal words of code that are values, not computations. */
const CONSTANTS: ReadonlySet<string> = new Set(['true', 'false', 'null', 'True', 'False', 'None', 'undefined']);

/** A team value Terraform or a program computes: a call or an expression in either, a variable of a program. */
function isComputed(node: TreeNode): boolean {
  const path = node.span.source.path;
  if (node.kind === 'call' || node.kind === 'other') return (isHcl(path) || isProgram(path)) && !(node.kind === 'other' && node.parts.length === 0 && /^-?\d/.test(spanText(node.span)));
  return node.kind === 'ref' && isProgram(path) && !CONSTANTS.has(node.path);
}

/**
 * The values a team list may hold, as Terraform gives them: a nested list's items, and each argument
 * of a function that picks among or joins its arguments (`coalesce(var.team, "Platform Team")`: the
 * fallback is a value the list holds whenever the variable is empty).
 */
function valuesItMayHold(nodes: readonly TreeNode[]): TreeNode[] {
  return nodes.flatMap((node) => {
    if (node.kind === 'list') return valuesItMayHold(node.items);
    if (node.kind === 'call' && PICKS_AMONG_ARGUMENTS.has(node.callee) && isHcl(node.span.source.path)) return valuesItMayHold(node.args.items);
    return [node];
  });
}

/** Why a team value taken from workflow inputs nothing types is for review. */
export function untypedInputsReason(what: string, inputs: readonly string[]): string {
  const named = inputs.map((input) => `inputs.${input}`).join(', ');
  return `${what} takes ${named}, which no action that dispatches this workflow fills with a team (a user input of format team, or the entity's $team), so it may hold a title, an identifier or free text`;
}

export const UNTYPED_INPUTS_HINT = "fill the input from a user input of format team in the action that dispatches the workflow (or from the entity's team), or make sure it holds team identifiers once the migration has run";

/** Findings the reader saw whole, as sites. */
export const settledSites = (drafts: readonly FileDraft[]): FileSite[] => drafts.map((draft) => ({ kind: 'settled', draft }));

/** An entity's `team` / `teams` entry (one value or a list): ownership kept outside the service, judged with the scan's teams. */
export function entityTeamSite(entry: Entry | undefined, title: string | undefined, what: string): FileSite[] {
  if (!entry || entry.value.kind === 'object') return [];
  return [{ kind: 'team-values', entry, title, what }];
}
