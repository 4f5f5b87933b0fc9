/**
 * Issue 39: the one entry point from rules to the judge. A rule names sites; the judge built here
 * for one catalog turns each into a finding, or none (src/model/sites.ts `SiteJudge`).
 */
import type { Catalog } from '../catalog/catalog.js';
import type { FindingDraft } from '../model/finding.js';
import type { SiteJudge } from '../model/sites.js';
import { gravest, judgeSite } from './decision-table.js';
import { entityImpact } from './entity-impact.js';
import { entityMappingFindings } from './entity-mapping-team.js';
import { expressionFinding, wholeCondition } from './expression-finding.js';
import { wholePolicy } from './policy-whole.js';
import { comparesTeams, judgedWhole, searchQueryFindings, searchRuleFinding } from './search-rule-finding.js';
import { literalTeamFinding, literalTeamValues } from './team-literals.js';
import { teamInputsOf } from './team-typed.js';
import { teamValuedProperties } from './team-valued.js';

export function siteJudge(catalog: Catalog): SiteJudge {
  return {
    expression: (site, options) => expressionFinding(catalog, site, options),
    searchRule: (site) => searchRuleFinding(catalog, site),
    searchQuery: (site, query, path) => searchQueryFindings(catalog, site, query, path),
    wholeGroups: (site, query, path, findings) => judgedWhole(catalog, site, query, path, findings),
    wholePolicy: (subject, queries, conditions, findings) => wholePolicy(catalog, subject, queries, conditions, findings),
    wholeCondition: (site, combinator, parts, findings) => wholeCondition(catalog, site, combinator, parts, findings),
    literalTeam: (site, value, names) => literalTeamFinding(catalog, site, value, names),
    literalTeamValues: (value) => literalTeamValues(value, catalog.teams),
    entityMapping: (site) => entityMappingFindings(catalog, site),
    comparesTeams,
    entityImpact: (blueprint, expression, removedRelations) => entityImpact(catalog, blueprint, expression, removedRelations),
    verdict: judgeSite,
    gravest,
    teamInputsOf,
    teamProperties: (blueprint) => teamValuedProperties(catalog, blueprint),
  };
}

/** A rule's findings: what the judge makes of the sites it names. */
export function judgeRule(catalog: Catalog, rule: { check(catalog: Catalog, judge: SiteJudge): FindingDraft[] }): FindingDraft[] {
  return rule.check(catalog, siteJudge(catalog));
}
