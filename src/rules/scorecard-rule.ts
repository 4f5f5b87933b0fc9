import type { Catalog } from '../catalog/catalog.js';
import type { SearchRuleSite, SiteJudge } from '../model/sites.js';
import { asString, isObject, type JsonObject, type JsonValue } from '../model/json.js';
import type { Path } from '../catalog/location.js';
import type { FindingDraft, ResourceRef } from '../model/finding.js';
import type { Rule } from './rule.js';
import { removedRelationsFor } from '../catalog/resources.js';
import { searchRules } from '../catalog/walk.js';

/**
 * Scorecards (docs/formats.md, the org snapshot): each rule's `query` and the scorecard's `filter` hold
 * conditions of the search-rule shape `{property, operator, value}`. A condition comparing `$team`
 * with a title stops matching once `$team` holds identifiers, so entities silently lose a level
 * (a rule) or drop out of the scorecard (its filter); one on a removed relation points at nothing.
 * A condition on a mirror property that copies `$team` (catalog.teamMirrors) compares the same values.
 */
export const scorecardRule: Rule = {
  category: 'scorecard-rule',
  check(catalog: Catalog, judge: SiteJudge): FindingDraft[] {
    const findings: FindingDraft[] = [];
    const scorecards = Array.isArray(catalog.snapshot.scorecards) ? catalog.snapshot.scorecards : [];
    for (const scorecard of scorecards) {
      if (!isObject(scorecard)) continue;
      const blueprint = asString(scorecard.blueprint);
      const removed = removedRelationsFor(catalog, blueprint);
      const resource = scorecardRef(scorecard, blueprint);
      const teamProperties = judge.teamProperties(blueprint);
      // Each query is judged whole, with its combinator, as every search query is.
      const report = (query: JsonValue | undefined, base: Path, subject: string) => {
        const ofQuery: FindingDraft[] = [];
        for (const { path, rule: condition } of searchRules(query, base, 'conditions')) {
          const site: SearchRuleSite = { category: 'scorecard-rule', resource, path, rule: condition, subject, removedRelations: removed, teamProperties, ...(blueprint !== undefined && { blueprint }) };
          const finding = judge.searchRule(site);
          if (finding) ofQuery.push(finding);
        }
        findings.push(...judge.wholeGroups({ subject, ...(blueprint !== undefined && { blueprint }) }, query, base, ofQuery));
      };
      report(scorecard.filter, ['filter'], 'The scorecard filter');
      const rules = Array.isArray(scorecard.rules) ? scorecard.rules : [];
      rules.forEach((rule, index) => {
        if (!isObject(rule)) return;
        const name = asString(rule.title) ?? asString(rule.identifier) ?? `#${index}`;
        report(rule.query, ['rules', index, 'query'], `The condition of scorecard rule "${name}"`);
      });
    }
    return findings;
  },
};

/** Scorecard identifiers are unique per blueprint only, so the blueprint is part of the name. */
function scorecardRef(scorecard: JsonObject, blueprint: string | undefined): ResourceRef {
  const identifier = `${blueprint ?? '(no blueprint)'}/${asString(scorecard.identifier) ?? '(unnamed scorecard)'}`;
  const title = asString(scorecard.title);
  return title !== undefined ? { type: 'scorecard', identifier, title } : { type: 'scorecard', identifier };
}
