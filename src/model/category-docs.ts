import type { Category, FindingKind } from './finding.js';

interface CategoryDoc {
  kind: FindingKind;
  title: string;
  /** Why the migration affects this kind of resource, in plain words for the report. */
  why: string;
  /** What the admin does about it. */
  fix: string;
  /**
   * docs/categories.md's row for it, markdown kept: when it is reported and (automatic ones) what the
   * migration does. SARIF rules carry it as their help, so a code-scanning alert explains itself;
   * test/report/sarif-help.test.ts keeps it equal to the page.
   */
  when: string;
  does?: string;
}

/** One place for what every category means; rules, the HTML report, SARIF and JUnit read it. */
export const CATEGORY_DOCS: Record<Category, CategoryDoc> = {
  'ownership-direct': {
    kind: 'automatic',
    title: 'Blueprint gets Direct ownership',
    why: 'Entities of this blueprint carry a $team value, so the migration sets ownership to Direct.',
    fix: 'Nothing to do in the service. Where the blueprint is kept in Terraform, Pulumi, GitOps or API scripts, add ownership {type: "Direct"} there too.',
    when: 'entities of the blueprint hold a `$team` value and the blueprint has no `teamInheritance`',
    does: 'sets `ownership: {type: Direct}`',
  },
  'ownership-inherited': {
    kind: 'automatic',
    title: 'Team inheritance becomes Inherited ownership',
    why: 'The migration replaces teamInheritance {path} with ownership {type: "Inherited", path} over the same path.',
    fix: 'Nothing to do in the service. Mirror the change in any external copy of the blueprint: remove teamInheritance, add ownership.',
    when: 'the blueprint has `teamInheritance.path`',
    does: 'sets `ownership: {type: Inherited, path}` and removes `teamInheritance` (a path that cannot be resolved gets a note)',
  },
  'team-relation-removed': {
    kind: 'automatic',
    title: 'Relation to _team is removed',
    why: 'The blueprint inherits teams over a direct relation to _team (the beta feature); the migration deletes that relation and sets Direct ownership.',
    fix: 'Nothing to do in the service. Remove the relation from external copies, and fix every expression that reads it (listed under manual work).',
    when: 'the blueprint inherits its team over a direct relation to `_team` (orgs with the beta feature)',
    does: 'deletes the relation, sets `ownership: {type: Direct}`',
  },
  'team-permission-identifiers': {
    kind: 'automatic',
    title: 'Team permissions switch to identifiers',
    why: 'Explicit team entries in blueprint, action and page permissions hold team titles; the migration replaces them with team identifiers.',
    fix: 'Nothing to do in the service. Where permissions are managed as code, replace each title with the identifier shown.',
    when: 'blueprint, action or page permissions list teams by title',
    does: 'replaces the titles with team identifiers (the finding shows the new list)',
  },
  'external-ownership': {
    kind: 'manual',
    title: 'Ownership or teams defined outside the service',
    why: 'Terraform, Pulumi, GitOps files and API scripts keep their own copy of teamInheritance, team lists and _team blueprints; the migration cannot change them and the next apply would revert it.',
    fix: 'Change the file as suggested: ownership instead of team_inheritance, identifiers instead of titles, port_system_blueprint for _user and _team.',
    when: 'ownership, team inheritance or team lists kept in Terraform, Pulumi, GitOps files or API scripts (`--repo`)',
  },
  'calculation-property': {
    kind: 'manual',
    title: 'Calculation property reads teams',
    why: 'A calculation that reads the team meta property sees identifiers instead of titles afterwards; one that reads a removed team relation sees nothing.',
    fix: 'Compare against team identifiers, and read .team instead of a removed relation.',
    when: 'a calculation property reads `$team` (`.team`) or a team relation the migration removes',
  },
  'action-user-input': {
    kind: 'manual',
    title: 'Action user input reads teams',
    why: 'A jqQuery in a user input (visibility, default, dataset) that compares .user.team or an entity\'s teams with a title stops matching.',
    fix: 'Compare with team identifiers in the jqQuery.',
    when: 'a self-service input\'s `jqQuery` (visible, required, disabled, default, dataset rules) reads team values',
  },
  'action-mapping': {
    kind: 'manual',
    title: 'Action or automation mapping uses teams',
    why: 'Mappings, trigger conditions and webhook URL, body or headers that read or write the team meta property change meaning when titles become identifiers.',
    fix: 'Produce and compare team identifiers; read .team instead of a removed relation.',
    when: 'an action\'s or automation\'s mapping (UPSERT `team`, relations), trigger condition, or `{{ }}` template in a webhook URL, body or headers reads or writes team values',
  },
  'action-dynamic-permission': {
    kind: 'manual',
    title: 'Dynamic permission depends on teams',
    why: 'Policy query rules on $team and conditions over .results[].team compare team values, which become identifiers.',
    fix: 'Use team identifiers in rule values and conditions.',
    when: 'an action\'s permission policy (query rules on `$team`, conditions reading team values) depends on teams',
  },
  'integration-mapping': {
    kind: 'manual',
    title: 'Integration mapping sets teams',
    why: 'A mapping that sets team must produce a team identifier afterwards; mappings kept in a port.yaml file cannot be seen and must be checked by hand.',
    fix: 'Make the team expression produce identifiers (or map titles to identifiers); review repository-managed mappings.',
    when: 'an integration mapping sets `team` or a removed relation; a git integration whose mapping lives in a repository file is listed too, since its target cannot be seen',
  },
  'webhook-mapping': {
    kind: 'manual',
    title: 'Webhook mapping sets teams',
    why: 'A webhook mapping that sets team from a title assigns no owner once $team holds identifiers.',
    fix: 'Make the team expression produce team identifiers.',
    when: 'a webhook mapping sets `team` or a removed relation',
  },
  'page-widget': {
    kind: 'manual',
    title: 'Page widget refers to teams',
    why: 'Widget filters on $team by title stop matching, and excluded, hidden, shown, sorted or grouped fields that name a removed relation point at nothing.',
    fix: 'Filter by team identifier, and use $team in place of the removed relation.',
    when: 'a widget filters `$team` by title, or excludes, hides, shows, sorts or groups by a removed relation',
  },
  'relation-ownership': {
    kind: 'manual',
    title: 'Ownership kept only in a relation',
    why: 'The blueprint relates to _team but has no teamInheritance, so the migration creates no ownership; the relation keeps the data but does not grant ownership.',
    fix: 'Set ownership {type: "Direct"} on the blueprint, then run the builder\'s Migrate data with the mapping shown.',
    when: 'a blueprint keeps its teams only in a relation to `_team`: the migration creates no ownership; move the data with the builder\'s *Migrate data* (the fix kit writes the mapping)',
  },
  'scorecard-rule': {
    kind: 'manual',
    title: 'Scorecard compares teams',
    why: 'A scorecard rule condition or scorecard filter that compares $team with a team title stops matching once $team holds identifiers, so entities silently drop a level or leave the scorecard; one on a removed team relation points at nothing.',
    fix: 'Compare $team with team identifiers in the condition, and use $team in place of a removed relation.',
    when: 'a scorecard rule condition or filter compares `$team` with a title, or names a removed relation (resource `scorecard`, identifier `<blueprint>/<scorecard>`)',
  },
  'mirror-property': {
    kind: 'manual',
    title: 'Mirror property carries teams',
    why: 'A mirror property whose path goes through $team holds team titles today and team identifiers afterwards; whatever compares its values with titles breaks (those readers are listed in their own categories). One over a removed team relation points at nothing.',
    fix: 'Keep the mirror, and make its readers expect identifiers; point a path over a removed relation at $team.',
    when: 'a mirror property\'s path ends at `$team` (its values become identifiers: `review` its readers) or goes over a removed relation (`breaks`)',
  },
};
