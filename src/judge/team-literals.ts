import type { Catalog } from '../catalog/catalog.js';
import { classifyTeamValue, partitionTeamValues, unknownIdentifierHint, type TeamDirectory } from '../catalog/teams.js';
import type { JsonValue } from '../model/json.js';
import type { LiteralTeamSite } from '../model/sites.js';
import type { FindingDraft } from '../model/finding.js';
import { APPLY_WITH_THE_MIGRATION, decide, judgeLiterals, stateOf } from './decision-table.js';
import { isPlainText, templateExpressions } from '../catalog/walk.js';

/**
 * The team names of a literal team value (a plain string or a list of them), or undefined when any
 * part is jq. A known team title or identifier is a name whatever it holds (`Dev.Ops`, `Platform (EU)`).
 */
export function literalTeamValues(value: JsonValue | undefined, teams: TeamDirectory): string[] | undefined {
  const values = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
  const isName = (item: JsonValue): item is string =>
    typeof item === 'string' && templateExpressions(item).length === 0 && (isPlainText(item) || classifyTeamValue(teams, item).state !== 'unknown');
  if (values.length === 0 || !values.every(isName)) return undefined;
  return values;
}

export type { LiteralTeamSite };

/**
 * Literal team names written where a team value goes (a mapping's `team`, a team-typed input's
 * `default`): titles match no team once `$team` holds identifiers; identifiers that are no team's
 * title name no team until the migration runs (issue 29: apply them with it).
 */
export function literalTeamFinding(catalog: Catalog, site: LiteralTeamSite, value: string | string[], names: readonly string[]): FindingDraft | undefined {
  const split = partitionTeamValues(catalog.teams, names);
  const titles = [...split.titles, ...split.pendingTitles];
  // Identifiers the org does not hold yet: no team has them as a title.
  const early = catalog.migrated ? [] : split.identifiers.filter((v) => v.trim() !== '' && !catalog.teams.byTitle.has(v));
  if (titles.length === 0 && split.unknown.length === 0 && early.length === 0) return undefined;
  const quoted = (list: readonly string[]) => list.map((name) => JSON.stringify(name)).join(', ');
  const base = { category: site.category, resource: site.resource, location: site.location, evidence: typeof value === 'string' ? value : JSON.stringify(value) };
  if (titles.length === 0 && split.unknown.length === 0) {
    const decision = decide({ class: 'changed', sink: 'team-value', state: stateOf(catalog), stateUnknown: catalog.stateUnknown, literals: 'written-for-identifiers' });
    return {
      ...base,
      reason: `${site.subject} sets ${site.sets} to team identifier ${quoted(early)}: it is written for team identifiers, which the org does not hold yet (its $team values are titles until the migration), so it names no team before the migration and the right team after it.${decision.postscript !== undefined ? ` ${decision.postscript}` : ''}`,
      suggestion: decision.advice ?? APPLY_WITH_THE_MIGRATION,
      verdict: decision.verdict,
    };
  }
  const finding: FindingDraft = {
    ...base,
    reason:
      titles.length > 0
        ? `${site.subject} sets ${site.sets} to team title ${quoted(titles)}; after the migration $team holds team identifiers, so a title matches no team.`
        : `${site.subject} sets ${site.sets} to ${quoted(split.unknown)}, which is neither a known team title nor a known team identifier.`,
    suggestion:
      split.pendingTitles.length > 0
        ? `Write the teams' identifiers instead: ${unknownIdentifierHint(split.pendingTitles)}.`
        : titles.length > 0
          ? `Write the teams' identifiers: ${JSON.stringify(typeof value === 'string' ? split.translated[0] : split.translated)}.`
          : 'Check that the value is a team identifier once the migration has run (pass --teams-map to tell titles from identifiers).',
    verdict: judgeLiterals(titles.length > 0),
  };
  // A string's rewrite is the new string itself (files re-quote it in place); a list's is its JSON.
  if (split.titles.length > 0 && split.pendingTitles.length === 0) finding.rewrite = typeof value === 'string' ? split.translated[0]! : JSON.stringify(split.translated);
  return finding;
}
