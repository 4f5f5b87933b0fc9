/** What a report carries about its org's teams and what `merge` finds across orgs: types only, below the report. */

/**
 * `report.orgTeams` (issue 41): what a report must carry about its org's teams so reports of
 * several orgs, written by separate runs, can be checked against each other (`merge`): the teams,
 * who is in them, and where the configuration names them. Small: per team and per naming site,
 * never per entity.
 */
export interface OrgTeams {
  /** The legacy teams list: each team's title, and identifier when known. */
  listed: { title: string; identifier?: string }[];
  /** The `_team` entities: each one's identifier and title. */
  entities: { identifier: string; title?: string }[];
  /** Members per team value (title or identifier, as users name them), when the org's users were read (and there were some). */
  members?: Record<string, number>;
  /** Team values a permission's `teams` list names, and where. */
  named: { value: string; resource: string; location: string }[];
  /** Team values entities hold, and how many entities hold each. */
  owning: Record<string, number>;
}

/**
 * What no single org's report can see (issue 41): the service keeps development, staging and
 * production as separate orgs, and a team identifier is each org's own.
 * - `team-missing`: a permission names a team this org lacks, though another org has it (a
 *   configuration promoted from one org to the next);
 * - `empty-team`: a team nobody is in grants access or owns entities (integrations have synced teams
 *   as empty shells): after the migration it grants nobody anything;
 * - `phantom-team`: a `_team` entity with no title of its own, whose identifier is
 *   another team's title (a title-valued relation to `_team` with "create missing related entities"
 *   on made it).
 */
export interface CrossOrgCheck {
  check: 'team-missing' | 'empty-team' | 'phantom-team';
  /** The org the check is about (organization.id). */
  org: string;
  team: string;
  /** One sentence saying what was found and why it matters. */
  message: string;
  resource?: string;
  location?: string;
}
