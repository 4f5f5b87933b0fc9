import { partitionTeamValues } from '../catalog/teams.js';
import type { Rule } from './rule.js';
import { plannedPermissionRewrites } from './team-permission-identifiers.js';

/**
 * After the migration: an explicit team list that still names teams by title is one the migration
 * should have rewritten to identifiers (spec 4.3). `$team` now holds identifiers, so a title there
 * matches no team: its members have lost this permission. Lists with only values that are no known
 * team are left out: the migration rewrites titles, and those are none.
 */
export const missedPermissionIdentifiers: Rule = {
  category: 'team-permission-identifiers',
  asksJq: false,
  check(catalog) {
    if (!catalog.migrationRan) return [];
    // A value that is a team's identifier today matches that team now, though another team is titled
    // so: it is no title left behind, and rewriting it would hand the permission to the other team.
    const today = (value: string) => catalog.teams.identifiers.has(value);
    return plannedPermissionRewrites(catalog).flatMap((draft) => {
      const values = JSON.parse(draft.evidence) as string[];
      const { titles, pendingTitles, translated } = partitionTeamValues(catalog.teams, values);
      const left = [...titles, ...pendingTitles].filter((title) => !today(title));
      if (left.length === 0) return [];
      const list = left.map((title) => JSON.stringify(title)).join(', ');
      const rewritten = values.map((value, index) => (today(value) ? value : translated[index]!));
      const { rewrite: _planned, ...rest } = draft;
      const rewrite = rewritten.some((value, index) => value !== values[index]) ? JSON.stringify(rewritten) : undefined;
      return [
        {
          ...rest,
          ...(rewrite !== undefined && { rewrite }),
          reason: `The migration should have replaced the team title${left.length > 1 ? 's' : ''} ${list} with identifiers here and did not; $team now holds identifiers, so members of ${left.length > 1 ? 'these teams' : 'this team'} no longer get this permission.`,
          suggestion: rewrite
            ? `Write ${rewrite} in these permissions in the service, and in any Terraform, Pulumi or API copy of them.`
            : `Write the team identifiers in these permissions in the service (${draft.note ?? 'the identifiers are not known'}).`,
        },
      ];
    });
  },
};
