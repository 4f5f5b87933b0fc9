import { classifyTeamValue, type TeamDirectory } from '../catalog/teams.js';
import type { Verdict } from '../model/finding.js';
import { extractReferences, relationPaths, teamMetaPaths, valueStrings, type StringLiteral } from './references.js';

export interface ImpactContext {
  teams: TeamDirectory;
  /** Relations the migration removes, for the blueprint this expression runs against. */
  removedRelations: ReadonlySet<string>;
}

export interface TitleLiteral {
  title: string;
  identifier?: string;
}

/** What the migration does to one jq expression, when it touches teams at all. */
export interface ExpressionImpact {
  verdict: Verdict;
  /** The team reads found, as written (`.user.team`, `.relations.owning_team`). */
  teamReads: string[];
  removedRelations: string[];
  titles: TitleLiteral[];
  /** The expression with titles replaced by identifiers and removed relations by `.team`. */
  rewrite?: string;
  /** Set when the expression could not be lexed; the verdict is then a cautious `review`. */
  lexError?: string;
}

export interface AssessOptions {
  /** The expression's result becomes the team meta property (a mapping's `team`). */
  setsTeam?: boolean;
  /**
   * The input is external data (an integration's or webhook's payload), not an entity or the
   * action context, so a `.team` there is the source's own field, not the team meta property.
   */
  externalInput?: boolean;
}

/**
 * Decide whether a jq expression is affected by the migration, and how. Returns undefined when
 * it neither reads team values nor removed relations nor sets the team: such expressions are not
 * findings. Title literals only count when the expression deals with teams, so a property that
 * happens to equal a team's name is not flagged.
 */
export function assessTeamExpression(
  expression: string,
  context: ImpactContext,
  options: AssessOptions = {},
): ExpressionImpact | undefined {
  const result = extractReferences(expression);
  if (!result.ok) {
    const mentionsTeam =
      !options.externalInput &&
      (/\.team\b/.test(expression) || [...context.removedRelations].some((rel) => expression.includes(`.relations.${rel}`)));
    if (!mentionsTeam && !options.setsTeam) return undefined;
    return {
      verdict: 'review',
      teamReads: [],
      removedRelations: [],
      titles: [],
      lexError: `${result.error.message} at offset ${result.error.offset}`,
    };
  }
  const { references } = result;
  const teamReads = options.externalInput ? [] : teamMetaPaths(references).map((path) => expression.slice(path.start, path.end));
  const relationReads = options.externalInput ? [] : relationPaths(references, context.removedRelations);
  if (teamReads.length === 0 && relationReads.length === 0 && !options.setsTeam) return undefined;

  const titleLiterals: { literal: StringLiteral; title: TitleLiteral }[] = [];
  let comparesIdentifiers = false;
  for (const literal of valueStrings(references)) {
    const status = classifyTeamValue(context.teams, literal.value);
    if (status.state === 'title') titleLiterals.push({ literal, title: { title: literal.value, identifier: status.identifier } });
    if (status.state === 'title-unknown-identifier') titleLiterals.push({ literal, title: { title: literal.value } });
    if (status.state === 'identifier') comparesIdentifiers = true;
  }

  const verdict: Verdict =
    relationReads.length > 0 || titleLiterals.length > 0 ? 'breaks' : comparesIdentifiers ? 'unaffected' : 'review';
  const impact: ExpressionImpact = {
    verdict,
    teamReads: unique(teamReads),
    removedRelations: unique(relationReads.map((read) => read.relation)),
    titles: uniqueBy(titleLiterals.map((t) => t.title), (t) => t.title),
  };
  const rewrite = rewriteExpression(expression, titleLiterals, relationReads.map((r) => r.path));
  if (rewrite !== expression) impact.rewrite = rewrite;
  return impact;
}

/** Apply replacements right to left so earlier offsets stay valid. */
function rewriteExpression(
  expression: string,
  titles: { literal: StringLiteral; title: TitleLiteral }[],
  relationReads: { start: number; end: number }[],
): string {
  const edits: { start: number; end: number; text: string }[] = [];
  for (const { literal, title } of titles) {
    if (title.identifier !== undefined && literal.end - literal.start >= 2) {
      edits.push({ start: literal.start, end: literal.end, text: JSON.stringify(title.identifier) });
    }
  }
  for (const path of relationReads) {
    const text = expression.slice(path.start, path.end);
    // `.relations.<id>` (in any spelling) becomes `.team`: the ownership the relation turns into.
    const replaced = text.replace(/\.?\s*relations\s*(?:\.\s*"[^"]*"|\.\s*[A-Za-z_][A-Za-z0-9_]*|\[\s*"[^"]*"\s*\])/, '.team');
    edits.push({ start: path.start, end: path.end, text: replaced.startsWith('..') ? replaced.slice(1) : replaced });
  }
  edits.sort((a, b) => b.start - a.start);
  let result = expression;
  let lastStart = Number.POSITIVE_INFINITY;
  for (const edit of edits) {
    if (edit.end > lastStart) continue; // overlapping edits: keep the later one only
    result = result.slice(0, edit.start) + edit.text + result.slice(edit.end);
    lastStart = edit.start;
  }
  return result;
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}

function uniqueBy<T>(values: T[], key: (value: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const value of values) if (!seen.has(key(value))) seen.set(key(value), value);
  return [...seen.values()];
}

/** One sentence on how an expression is affected, for a finding's `reason`. */
export function describeImpact(impact: ExpressionImpact): string {
  const parts: string[] = [];
  if (impact.removedRelations.length > 0) {
    parts.push(`reads relation ${impact.removedRelations.map((r) => `"${r}"`).join(', ')}, which the migration removes (its teams move to the team meta property)`);
  }
  if (impact.teamReads.length > 0) {
    parts.push(`reads the team meta property (${impact.teamReads.join(', ')}), whose values change from team titles to team identifiers`);
  }
  if (impact.titles.length > 0) {
    parts.push(`compares against team title ${impact.titles.map((t) => JSON.stringify(t.title)).join(', ')}`);
  }
  if (impact.lexError) parts.push(`could not be read as jq (${impact.lexError}), so it is listed for review`);
  return parts.join('; ');
}
