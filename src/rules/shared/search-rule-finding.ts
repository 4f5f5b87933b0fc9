import type { Catalog } from '../../catalog/catalog.js';
import { partitionTeamValues, unknownIdentifierHint } from '../../catalog/teams.js';
import { isObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Category, FindingDraft, ResourceRef } from '../../model/finding.js';
import { decide, type LiteralEvidence, type MigrationState } from '../../judge/decision-table.js';
import { entitiesRead } from '../../judge/read-entities.js';
import { judgeTeamRule, knownOperator, valuesAsTitles, type RuleValue } from '../../judge/query-rule.js';
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
  /** The blueprint whose entities the rule filters, when known: its entities are what it is matched against. */
  blueprint?: string;
}

/** The org's migration state, read in one place (the per-blueprint state may replace it). */
export const migrationState = (catalog: Pick<Catalog, 'migrated'>): MigrationState => (catalog.migrated ? 'after' : 'before');

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

  const { titles, pendingTitles: pending, translated } = partitionTeamValues(catalog.teams, values);
  if (hops.length > 0 && titles.length + pending.length === 0) return throughTeam(base, site.subject, hops);
  return judgedRuleFinding(catalog, site, base, { values, titles, pending, translated });
}

/**
 * A `$team` rule with values, judged by matching it as the service does against the org's
 * entities and edge cases, before and after the migration (src/judge/query-rule.ts); the verdict
 * and its why come from the decision table.
 */
function judgedRuleFinding(
  catalog: Catalog,
  site: SearchRuleSite,
  base: Pick<FindingDraft, 'category' | 'resource' | 'location' | 'evidence'>,
  { values, titles, pending, translated }: { values: readonly string[]; titles: readonly string[]; pending: readonly string[]; translated: readonly string[] },
): FindingDraft | undefined {
  const { rule } = site;
  const operator = String(rule.operator);
  const literals = values.filter((v) => !SERVICE_TEMPLATE.test(v));
  const ruleValue: RuleValue = literals.length === 0 ? { kind: 'user-teams' } : { kind: 'literals', values: literals };
  const entities = site.blueprint !== undefined ? entitiesRead(catalog, site.blueprint) : [];
  const judged = judgeTeamRule(catalog.teams, operator, ruleValue, entities);
  if (!judged) {
    if (!knownOperator(operator) && titles.length + pending.length === 0 && literals.length === 0) return undefined;
    return {
      ...base,
      reason: `${site.subject} compares $team with operator ${JSON.stringify(rule.operator)}, which this tool cannot evaluate, so what the migration does to it is unknown.`,
      suggestion: 'Check that the rule matches the same entities once $team holds team identifiers.',
      verdict: 'review',
    };
  }
  // The service fills the values from the user's own teams: it follows them, as before this tool judged it.
  if (ruleValue.kind === 'user-teams' && judged.class === 'same') return undefined;
  let evidence: LiteralEvidence = 'plain';
  if (judged.class === 'changed') {
    if (judged.difference?.standIn) evidence = 'stand-in-only';
    const asTitles = valuesAsTitles(catalog.teams, literals);
    if (asTitles && judgeTeamRule(catalog.teams, operator, { kind: 'literals', values: asTitles }, entities, literals)?.class === 'same') evidence = 'written-for-identifiers';
  }
  const decision = decide({ class: judged.class, sink: 'team-comparison', state: migrationState(catalog), literals: evidence }, judged.difference);
  const compared = ruleValue.kind === 'user-teams' ? 'the user\'s own teams' : literals.map((t) => JSON.stringify(t)).join(', ');
  const finding: FindingDraft = {
    ...base,
    reason: `${site.subject} compares $team with ${compared} (operator ${JSON.stringify(rule.operator)}); matched against the org's entities before and after the migration, ${decision.why}.`,
    suggestion: 'Nothing to change: it matches the same entities before and after the migration.',
    verdict: decision.verdict,
  };
  if (judged.rows.read > 0) {
    // A scorecard condition passes or fails per entity; a filter or dataset shows rows.
    finding.impact = site.category === 'scorecard-rule' ? { scorecard: { flipped: judged.rows.flipped }, rows: { before: judged.rows.before, after: judged.rows.after } } : { rows: { before: judged.rows.before, after: judged.rows.after } };
  }
  if (decision.verdict === 'unaffected') return finding;
  const newValue = typeof rule.value === 'string' ? translated[0]! : translated;
  const rewritten = { ...rule, value: newValue };
  if (titles.length > 0) {
    finding.rewrite = JSON.stringify(rewritten);
    const proof = judgeTeamRule(catalog.teams, operator, ruleValue, entities, translated.filter((v) => !SERVICE_TEMPLATE.test(v)));
    finding.rewriteProof = proof?.class === 'same' && pending.length === 0 ? 'proven' : 'suggested';
    finding.suggestion = `Use the identifier: ${finding.rewrite}.`;
    if (finding.rewriteProof === 'suggested') finding.suggestion += proof?.difference ? ` This rewrite is a suggestion, not proven: for ${proof.difference.context} the rule ${proof.difference.before.replace(/^it /, '')} before the migration but the rewrite ${proof.difference.after.replace(/^it /, '')} after it.` : ' This rewrite is a suggestion, not proven.';
    if (pending.length > 0) finding.note = `${unknownIdentifierHint(pending)}.`;
  } else if (pending.length > 0) {
    finding.suggestion = `Use the team's identifier instead: ${unknownIdentifierHint(pending)}.`;
  } else {
    finding.suggestion = 'Make the rule compare $team with the identifiers of the teams it means, so it matches the same entities after the migration as before.';
  }
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
