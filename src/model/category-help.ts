/**
 * What docs/categories.md says of each category (its table rows, markdown kept): SARIF rules carry
 * it as their help, so a code-scanning alert explains itself. Kept equal to the page by a test
 * (test/report/sarif-help.test.ts), which prints this table again when the page changes.
 */
import type { Category } from './finding.js';

export const CATEGORY_HELP: Record<Category, { when: string; does?: string }> = {
  "ownership-direct": {
    "when": "entities of the blueprint hold a `$team` value and the blueprint has no `teamInheritance`",
    "does": "sets `ownership: {type: Direct}`"
  },
  "ownership-inherited": {
    "when": "the blueprint has `teamInheritance.path`",
    "does": "sets `ownership: {type: Inherited, path}` and removes `teamInheritance` (a path that cannot be resolved gets a note)"
  },
  "team-relation-removed": {
    "when": "the blueprint inherits its team over a direct relation to `_team` (orgs with the beta feature)",
    "does": "deletes the relation, sets `ownership: {type: Direct}`"
  },
  "team-permission-identifiers": {
    "when": "blueprint, action or page permissions list teams by title",
    "does": "replaces the titles with team identifiers (the finding shows the new list)"
  },
  "calculation-property": {
    "when": "a calculation property reads `$team` (`.team`) or a team relation the migration removes"
  },
  "action-user-input": {
    "when": "a self-service input's `jqQuery` (visible, required, disabled, default, dataset rules) reads team values"
  },
  "action-mapping": {
    "when": "an action's or automation's mapping (UPSERT `team`, relations), trigger condition, or `{{ }}` template in a webhook URL, body or headers reads or writes team values"
  },
  "action-dynamic-permission": {
    "when": "an action's permission policy (query rules on `$team`, conditions reading team values) depends on teams"
  },
  "integration-mapping": {
    "when": "an integration mapping sets `team` or a removed relation; a git integration whose mapping lives in a repository file is listed too, since its target cannot be seen"
  },
  "webhook-mapping": {
    "when": "a webhook mapping sets `team` or a removed relation"
  },
  "page-widget": {
    "when": "a widget filters `$team` by title, or excludes, hides, shows, sorts or groups by a removed relation"
  },
  "relation-ownership": {
    "when": "a blueprint keeps its teams only in a relation to `_team`: the migration creates no ownership; move the data with the builder's *Migrate data* (the fix kit writes the mapping)"
  },
  "scorecard-rule": {
    "when": "a scorecard rule condition or filter compares `$team` with a title, or names a removed relation (resource `scorecard`, identifier `<blueprint>/<scorecard>`)"
  },
  "mirror-property": {
    "when": "a mirror property's path ends at `$team` (its values become identifiers: `review` its readers) or goes over a removed relation (`breaks`)"
  },
  "external-ownership": {
    "when": "ownership, team inheritance or team lists kept in Terraform, Pulumi, GitOps files or API scripts (`--repo`)"
  }
};
