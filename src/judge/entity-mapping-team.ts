import type { Catalog } from '../catalog/catalog.js';
import { keyedRecord, isObject, type JsonObject, type JsonValue } from '../model/json.js';
import type { FindingDraft } from '../model/finding.js';
import { expressionFinding } from './expression-finding.js';
import { joinPath, type Path } from '../catalog/location.js';
import { searchQueryFindings } from './search-rule-finding.js';
import { removedRelationsFor } from '../catalog/resources.js';
import { judgeSite } from './decision-table.js';
import type { EntityMappingSite } from '../model/sites.js';

export type { EntityMappingSite };

/**
 * Integration and webhook mappings read an external payload, so only what they write matters:
 * `team` (a jq expression or a search query over `_team`) and relations the migration removes.
 */
export function entityMappingFindings(catalog: Catalog, site: EntityMappingSite): FindingDraft[] {
  const findings: FindingDraft[] = [];
  const blueprint = typeof site.mapping.blueprint === 'string' ? unquoteJq(site.mapping.blueprint) : undefined;
  const removedRelations = removedRelationsFor(catalog, blueprint);
  // A list of team values (`team: [".owner", ".team"]`): each element is judged as the value
  // alone would be, at its own location.
  const team = site.mapping.team;
  const teamItems = Array.isArray(team) ? team.map((value, index) => ({ value, path: [...site.path, 'team', index] })) : [{ value: team, path: [...site.path, 'team'] }];
  for (const { value, path } of teamItems) findings.push(...teamValueFindings(catalog, site, value, path, removedRelations));
  const relations = isObject(site.mapping.relations) ? site.mapping.relations : keyedRecord();
  for (const [relation, value] of Object.entries(relations)) {
    if (!removedRelations.has(relation)) continue;
    const evidence = typeof value === 'string' ? value : JSON.stringify(value);
    findings.push({
      category: site.category,
      resource: site.resource,
      location: joinPath(...site.path, 'relations', relation),
      evidence,
      reason: `The mapping sets relation "${relation}", which the migration removes; its teams move to the team meta property.`,
      suggestion: `Map the same value to team instead (team: ${evidence}) and drop relations.${relation}.`,
      verdict: judgeSite('removed-relation'),
      rewrite: JSON.stringify({ team: value }),
    });
  }
  return findings;
}

/** `team` as a jq expression or a search query over `_team`. */
function teamValueFindings(catalog: Catalog, site: EntityMappingSite, team: JsonValue | undefined, path: Path, removedRelations: ReadonlySet<string>): FindingDraft[] {
  if (typeof team === 'string') {
    const finding = expressionFinding(
      catalog,
      { category: site.category, resource: site.resource, location: joinPath(...path), expression: team, subject: 'The mapping', removedRelations },
      { setsTeam: true, externalInput: true },
    );
    return finding ? [finding] : [];
  }
  if (!isObject(team)) return [];
  // A search over `_team` entities whose values are jq over the payload the source sends.
  const ruleFindings = searchQueryFindings(catalog, { category: site.category, resource: site.resource, subject: 'The team search query', removedRelations, searchesTeams: true, valueSource: 'payload' }, unquotedQuery(team), path);
  if (ruleFindings.length > 0) return ruleFindings;
  return [
    {
      category: site.category,
      resource: site.resource,
      location: joinPath(...path),
      evidence: JSON.stringify(team),
      reason: 'The mapping sets the team meta property from a search over teams, whose results become team identifiers after the migration.',
      suggestion: 'Check that the query still selects the intended _team entities; match on $identifier or on properties that stay the same.',
      verdict: judgeSite('team-search-result'),
    },
  ];
}

/**
 * An integration mapping's search query writes its combinator, properties and operators as jq
 * string literals (`'"and"'`, `'"$title"'`, `'"="'`), its values as jq over the payload; a
 * webhook's plainly. The query as the service runs it: those literals unquoted, values as written.
 */
function unquotedQuery(query: JsonObject): JsonObject {
  const out: JsonObject = { ...query };
  if (typeof query.combinator === 'string') out.combinator = unquoteJq(query.combinator);
  if (Array.isArray(query.rules)) {
    out.rules = query.rules.map((rule) => {
      if (!isObject(rule)) return rule;
      if (Array.isArray(rule.rules)) return unquotedQuery(rule);
      return { ...rule, ...(typeof rule.property === 'string' && { property: unquoteJq(rule.property) }), ...(typeof rule.operator === 'string' && { operator: unquoteJq(rule.operator) }) };
    });
  }
  return out;
}

/** Integration mappings write the blueprint as a jq string literal (`'"service"'`); webhooks plainly. */
function unquoteJq(value: string): string {
  const match = /^\s*"([^"\\]*)"\s*$/.exec(value);
  return match ? match[1]! : value;
}
