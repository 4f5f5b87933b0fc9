import type { Catalog } from '../../catalog/catalog.js';
import { classifyTeamValue, unknownIdentifierHint } from '../../catalog/teams.js';
import { isObject, type JsonValue } from '../../model/json.js';
import type { Category, FindingDraft, ResourceRef, Verdict } from '../../model/finding.js';
import { expressionFinding } from './expression-finding.js';
import { joinPath, type Path } from './location.js';

export interface SearchRuleSite {
  category: Category;
  resource: ResourceRef;
  path: Path;
  rule: Record<string, JsonValue | undefined>;
  /** "The policy rule", "The widget filter". */
  subject: string;
  removedRelations: ReadonlySet<string>;
}

/** `{{getUserTeams()}}` and friends are resolved by the service and already yield identifiers. */
const SERVICE_TEMPLATE = /^\s*\{\{.*\}\}\s*$/s;

/**
 * A search rule (policy query, widget filter, dataset) is affected when it filters `$team` by a
 * title or filters on a relation the migration removes. A `$team` rule that already uses
 * identifiers, or only tests emptiness, is not.
 */
export function searchRuleFinding(catalog: Catalog, site: SearchRuleSite): FindingDraft | undefined {
  const { rule } = site;
  const property = typeof rule.property === 'string' ? rule.property : undefined;
  const location = joinPath(...site.path);
  const base = { category: site.category, resource: site.resource, location, evidence: JSON.stringify(rule) };

  if (property !== undefined && site.removedRelations.has(property)) {
    const rewritten = { ...rule, property: '$team' };
    return {
      ...base,
      reason: `${site.subject} filters on relation "${property}", which the migration removes; its teams move to $team.`,
      suggestion: `Filter on $team instead: ${JSON.stringify(rewritten)}.`,
      verdict: 'breaks',
      rewrite: JSON.stringify(rewritten),
    };
  }
  if (property !== '$team') return undefined;

  const value = rule.value;
  if (isObject(value) && typeof value.jqQuery === 'string') {
    return expressionFinding(
      catalog,
      { ...site, location: joinPath(...site.path, 'value', 'jqQuery'), expression: value.jqQuery, subject: `${site.subject} on $team` },
      { setsTeam: true },
    );
  }
  const values = typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  if (values.length === 0) return undefined; // isEmpty / isNotEmpty: unchanged by the migration

  const titles: string[] = [];
  const pending: string[] = [];
  const unknown: string[] = [];
  const replaced = values.map((v) => {
    if (SERVICE_TEMPLATE.test(v)) return v;
    const status = classifyTeamValue(catalog.teams, v);
    if (status.state === 'title') titles.push(v);
    if (status.state === 'title-unknown-identifier') pending.push(v);
    if (status.state === 'unknown') unknown.push(v);
    return status.state === 'title' ? status.identifier : v;
  });
  if (titles.length + pending.length + unknown.length === 0) return undefined;

  const verdict: Verdict = titles.length + pending.length > 0 ? 'breaks' : 'review';
  const newValue = typeof value === 'string' ? replaced[0]! : replaced;
  const rewritten = { ...rule, value: newValue };
  const named = [...titles, ...pending];
  const finding: FindingDraft = {
    ...base,
    reason:
      named.length > 0
        ? `${site.subject} compares $team with team title ${named.map((t) => JSON.stringify(t)).join(', ')}, which stops matching once $team holds identifiers.`
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
