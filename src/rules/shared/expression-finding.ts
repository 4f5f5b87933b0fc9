import type { Catalog } from '../../catalog/catalog.js';
import type { Category, FindingDraft, ResourceRef } from '../../model/finding.js';
import { assessTeamExpression, describeImpact, type AssessOptions } from '../../jq/team-impact.js';
import { unknownIdentifierHint } from '../../catalog/teams.js';

export interface ExpressionSite {
  category: Category;
  resource: ResourceRef;
  location: string;
  expression: string;
  /** What this expression is, for the reason: "The calculation", "The visibility jqQuery". */
  subject: string;
  removedRelations: ReadonlySet<string>;
}

/**
 * The finding for one jq expression, or nothing when the migration does not touch it. All jq
 * bearing rules go through here, so reasons, verdicts and rewrites read the same everywhere.
 */
export function expressionFinding(catalog: Catalog, site: ExpressionSite, options: AssessOptions = {}): FindingDraft | undefined {
  const impact = assessTeamExpression(site.expression, { teams: catalog.teams, removedRelations: site.removedRelations }, options);
  if (!impact) return undefined;
  const described = describeImpact(impact);
  const setsTeam = options.setsTeam ? 'sets the team meta property, which must hold team identifiers after the migration' : '';
  const reason = `${site.subject} ${[setsTeam, described].filter(Boolean).join('; ')}.`;

  const unknown = impact.titles.filter((t) => t.identifier === undefined).map((t) => t.title);
  let suggestion: string;
  if (impact.rewrite !== undefined) {
    suggestion = `Change it to: ${impact.rewrite}`;
    if (unknown.length > 0) suggestion += ` (${unknownIdentifierHint(unknown)})`;
  } else if (unknown.length > 0) {
    suggestion = `Replace the title with the team's identifier: ${unknownIdentifierHint(unknown)}.`;
  } else if (impact.verdict === 'unaffected') {
    suggestion = 'Nothing to change: it already compares team identifiers. Keep it in mind if titles are added later.';
  } else if (options.setsTeam) {
    suggestion = 'Make sure the expression yields team identifiers, not titles (map titles to identifiers, or read the identifier from the source).';
  } else {
    suggestion = 'Check what the expression does with the team values: after the migration they are team identifiers, not titles.';
  }

  const draft: FindingDraft = {
    category: site.category,
    resource: site.resource,
    location: site.location,
    evidence: site.expression,
    reason,
    suggestion,
    verdict: impact.verdict,
  };
  if (impact.rewrite !== undefined) draft.rewrite = impact.rewrite;
  if (impact.lexError) draft.note = `not valid jq: ${impact.lexError}`;
  return draft;
}
