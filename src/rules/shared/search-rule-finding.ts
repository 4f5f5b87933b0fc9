import type { Catalog } from '../../catalog/catalog.js';
import { partitionTeamValues, unknownIdentifierHint } from '../../catalog/teams.js';
import { isObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Category, FindingDraft, ResourceRef, Verdict } from '../../model/finding.js';
import { expressionFinding } from './expression-finding.js';
import { joinPath, type Path } from './location.js';
import { propertyPath, searchRules } from './walk.js';

export interface SearchRuleSite {
  category: Category;
  resource: ResourceRef;
  path: Path;
  rule: Record<string, JsonValue | undefined>;
  /** "The policy rule", "The widget filter". */
  subject: string;
  removedRelations: ReadonlySet<string>;
  /** Properties that copy `$team` (mirror properties): a rule on one compares team values too. */
  teamProperties?: ReadonlySet<string>;
}

/** Operators that keep what does not match: a title no team holds any more lets everything through. */
const NEGATED_OPERATORS: ReadonlySet<string> = new Set(['!=', 'notIn', 'doesNotContains']);

/** `{{getUserTeams()}}` and friends are resolved by the service and already yield identifiers. */
const SERVICE_TEMPLATE = /^\s*\{\{.*\}\}\s*$/s;

/**
 * A search rule (policy query, widget filter, dataset) is affected when it filters `$team` by a
 * title or filters on a relation the migration removes. A `$team` rule that already uses
 * identifiers, or only tests emptiness, is not. A path rule (`property: {path: [...]}`) counts
 * by its first hop (a removed relation) or by the `$team` hop it reaches.
 */
export function searchRuleFinding(catalog: Catalog, site: SearchRuleSite): FindingDraft | undefined {
  const { rule } = site;
  if (typeof rule.property === 'string' && site.teamProperties?.has(rule.property)) return teamPropertyRuleFinding(catalog, site, rule.property);
  const path = propertyPath(rule);
  const first = path?.[0];
  const isPathRule = typeof rule.property !== 'string';
  const location = joinPath(...site.path);
  const base = { category: site.category, resource: site.resource, location, evidence: JSON.stringify(rule) };

  if (first !== undefined && site.removedRelations.has(first)) {
    const rewritten = { ...rule, property: isPathRule ? { ...(rule.property as JsonObject), path: ['$team', ...path!.slice(1)] } : '$team' };
    const what = isPathRule ? `a path through relation "${first}"` : `relation "${first}"`;
    return {
      ...base,
      reason: `${site.subject} filters on ${what}, which the migration removes; its teams move to $team.`,
      suggestion: `Filter on $team instead: ${JSON.stringify(rewritten)}.`,
      verdict: 'breaks',
      rewrite: JSON.stringify(rewritten),
    };
  }
  // `$team` as the first hop, or reached over relations (`["service", "$team"]`): the values
  // compared are team values either way.
  const teamHop = path?.indexOf('$team') ?? -1;
  if (teamHop < 0) return undefined;

  const value = rule.value;
  if (isObject(value) && typeof value.jqQuery === 'string') {
    return expressionFinding(
      catalog,
      { ...site, location: joinPath(...site.path, 'value', 'jqQuery'), expression: value.jqQuery, subject: `${site.subject} on $team` },
      { setsTeam: true },
    );
  }
  const values = typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  const hops = path!.slice(teamHop + 1);
  if (values.length === 0) {
    // isEmpty / isNotEmpty on $team itself is unchanged by the migration; a path on through the
    // team compares something of the team entity, which needs a look.
    return hops.length === 0 ? undefined : throughTeam(base, site.subject, hops);
  }

  const { titles, pendingTitles: pending, unknown: unknownValues, translated } = partitionTeamValues(catalog.teams, values);
  const unknown = unknownValues.filter((v) => !SERVICE_TEMPLATE.test(v));
  if (hops.length > 0 && titles.length + pending.length === 0) return throughTeam(base, site.subject, hops);
  if (titles.length + pending.length + unknown.length === 0) return undefined;

  const verdict: Verdict = titles.length + pending.length > 0 ? 'breaks' : 'review';
  const newValue = typeof value === 'string' ? translated[0]! : translated;
  const rewritten = { ...rule, value: newValue };
  const named = [...titles, ...pending];
  const finding: FindingDraft = {
    ...base,
    reason:
      named.length > 0
        ? `${site.subject} compares $team with team title ${named.map((t) => JSON.stringify(t)).join(', ')}, which ${NEGATED_OPERATORS.has(String(rule.operator)) ? 'then excludes nothing (every entity passes it)' : 'stops matching'} once $team holds identifiers.`
        : `${site.subject} compares $team with ${unknown.map((t) => JSON.stringify(t)).join(', ')}, which is not a known team title or identifier.`,
    suggestion:
      titles.length > 0
        ? `Use the identifier: ${JSON.stringify(rewritten)}.`
        : pending.length > 0
          ? `Use the team's identifier instead: ${unknownIdentifierHint(pending)}.`
          : 'Check that the value is a team identifier once the migration has run.',
    verdict,
  };
  if (titles.length > 0) finding.rewrite = JSON.stringify(rewritten);
  if (titles.length > 0 && pending.length > 0) finding.note = `${unknownIdentifierHint(pending)}.`;
  return finding;
}

/** The findings of every rule of a search query (or a list of rules), nested groups included. */
export function searchQueryFindings(catalog: Catalog, site: Omit<SearchRuleSite, 'path' | 'rule'>, query: JsonValue | undefined, path: Path): FindingDraft[] {
  const findings: FindingDraft[] = [];
  for (const { path: rulePath, rule } of searchRules(query, path)) {
    const finding = searchRuleFinding(catalog, { ...site, path: rulePath, rule });
    if (finding) findings.push(finding);
  }
  return findings;
}

/** A path rule that goes on through `$team` to something of the team (`["$team", "parent"]`). */
function throughTeam(base: Pick<FindingDraft, 'category' | 'resource' | 'location' | 'evidence'>, subject: string, hops: readonly string[]): FindingDraft {
  return {
    ...base,
    reason: `${subject} follows $team on to ${hops.map((h) => JSON.stringify(h)).join(' → ')}; the migration turns $team from team titles into a relation to _team entities, so what the path reaches must be checked.`,
    suggestion: 'Check that the path still reaches the intended team property once $team points at _team entities, and that the values it compares are what those entities hold.',
    verdict: 'review',
  };
}

/**
 * A rule on a property that copies `$team` is judged as the same rule on `$team`; what the reader
 * sees and copies names the property again.
 */
function teamPropertyRuleFinding(catalog: Catalog, site: SearchRuleSite, property: string): FindingDraft | undefined {
  const { teamProperties: _, ...plain } = site;
  const asTeam = searchRuleFinding(catalog, { ...plain, rule: { ...site.rule, property: '$team' }, subject: `${site.subject} on mirror property "${property}" (a copy of $team)` });
  // A {jqQuery} value is judged as jq: its evidence and rewrite are the expression, not the rule.
  if (!asTeam || isObject(site.rule.value)) return asTeam;
  const finding: FindingDraft = { ...asTeam, evidence: JSON.stringify(site.rule) };
  if (asTeam.rewrite !== undefined) {
    finding.rewrite = JSON.stringify({ ...(JSON.parse(asTeam.rewrite) as JsonObject), property });
    finding.suggestion = `Use the identifier: ${finding.rewrite}.`;
  }
  return finding;
}
