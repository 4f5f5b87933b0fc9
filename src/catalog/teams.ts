import type { EntityRecord, TeamRecord } from '../model/snapshot.js';

/** The slug most identifiers are: a normaliser that builds it fits exactly those teams. */
export const slugOf = (title: string) => title.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');

/** A team as the migration sees it: its legacy title and, when known, its future identifier. */
export interface TeamInfo {
  title: string;
  identifier?: string;
  /** Where the identifier came from, so suggestions can say how sure they are. */
  source?: 'teams' | '_team entities' | 'teams map';
  /** Two or more teams of the org have this title: its identifiers, none of which a rewrite may pick. */
  ambiguous?: readonly string[];
}

export interface TeamDirectory {
  byTitle: ReadonlyMap<string, TeamInfo>;
  /** Identifiers that are known to be identifiers (a value equal to one is already migrated). */
  identifiers: ReadonlySet<string>;
  /** Teams-map entries that were not used, and why; the CLI prints them so nothing is dropped silently. */
  notes: readonly string[];
  /** The org itself names teams (its teams list or `_team` entities), not only a teams map. */
  orgKnowsTeams: boolean;
  /**
   * The sets of two or more teams (as titles) the org's entities and people hold, when the org's
   * entities or users were read (src/catalog/team-combinations.ts). The judge tries teams together
   * only as the org holds them: a combination nobody has shows nothing the org will see.
   */
  combinations?: readonly (readonly string[])[];
}

export type TeamsMap = Readonly<Record<string, string>>;

/**
 * Title → identifier, from (in order of trust) the `teams` list's own `identifier`, the `_team`
 * blueprint's entities (their `title` is the legacy team name, as the provider matches them), and
 * the user's `--teams-map`. Nothing is ever invented.
 */
export function buildTeamDirectory(
  teams: readonly TeamRecord[],
  teamEntities: readonly EntityRecord[],
  teamsMap: TeamsMap = {},
  /** The teams are only those some files name (a repository's catalog): a value none of them is may still be any team's title. */
  partial = false,
): TeamDirectory {
  const byTitle = new Map<string, TeamInfo>();
  const identifiers = new Set<string>();
  const sameTitle = new Map<string, Set<string>>();
  const learn = (title: string, identifier: string | undefined, source: TeamInfo['source']) => {
    const known = byTitle.get(title);
    // Two _team entities titled alike: any title → identifier rewrite through it is a guess (issue 22).
    // (The legacy teams list names each team once; its identifier and an entity's are one team's.)
    if (source === '_team entities' && identifier && known?.identifier && known.identifier !== identifier && known.source === '_team entities') {
      sameTitle.set(title, new Set([...(sameTitle.get(title) ?? [known.identifier]), identifier]));
    }
    if (!known) byTitle.set(title, identifier ? { title, identifier, source } : { title });
    else if (!known.identifier && identifier) byTitle.set(title, { title, identifier, source });
    if (identifier) identifiers.add(identifier);
  };
  for (const team of teams) {
    if (typeof team.name !== 'string') continue;
    learn(team.name, typeof team.identifier === 'string' ? team.identifier : undefined, 'teams');
  }
  for (const entity of teamEntities) {
    const title = typeof entity.title === 'string' ? entity.title : undefined;
    if (title) learn(title, entity.identifier, '_team entities');
    else identifiers.add(entity.identifier);
  }
  const notes: string[] = [];
  for (const [title, ids] of sameTitle) {
    byTitle.set(title, { title, ambiguous: [...ids].sort() });
    notes.push(`teams: ${ids.size} teams are titled ${JSON.stringify(title)} (${[...ids].sort().join(', ')}): no rewrite goes through that title, and the provider's port_team reads of it fail`);
  }
  const orgKnowsTeams = !partial && (byTitle.size > 0 || identifiers.size > 0);
  for (const [title, identifier] of Object.entries(teamsMap)) {
    const known = byTitle.get(title);
    if (known?.ambiguous) {
      notes.push(`teams map: ${JSON.stringify(title)} → ${JSON.stringify(identifier)} is ignored: ${known.ambiguous.length} teams of the org have that title`);
      continue;
    }
    if (known?.identifier !== undefined && known.identifier !== identifier) {
      notes.push(`teams map: ${JSON.stringify(title)} → ${JSON.stringify(identifier)} is ignored: the org's ${known.source} already give ${JSON.stringify(known.identifier)}`);
      continue;
    }
    if (!known && orgKnowsTeams) notes.push(`teams map: ${JSON.stringify(title)} is not a team of this org (check the spelling)`);
    learn(title, identifier, 'teams map');
  }
  return { byTitle, identifiers, notes, orgKnowsTeams };
}

export type TeamValueStatus =
  /** A known title whose identifier differs: it breaks, and we know the replacement. */
  | { state: 'title'; team: TeamInfo; identifier: string }
  /** A known title whose identifier we do not know yet. */
  | { state: 'title-unknown-identifier'; team: TeamInfo }
  /** Already an identifier (or a title equal to its identifier): the migration changes nothing. */
  | { state: 'identifier' }
  /** Neither a title nor an identifier we know. */
  | { state: 'unknown' };

export function classifyTeamValue(directory: TeamDirectory, value: string): TeamValueStatus {
  const team = directory.byTitle.get(value);
  if (team) {
    if (team.identifier === undefined) return { state: 'title-unknown-identifier', team };
    if (team.identifier === value) return { state: 'identifier' };
    return { state: 'title', team, identifier: team.identifier };
  }
  if (directory.identifiers.has(value)) return { state: 'identifier' };
  return { state: 'unknown' };
}

/** Replace every known title by its identifier; unknown values stay as they are. */
export function translateTeamValues(directory: TeamDirectory, values: readonly string[]): string[] {
  return partitionTeamValues(directory, values).translated;
}

/** Team values sorted by what the migration does to each, plus the list with titles translated. */
export interface TeamValuePartition {
  /** Known titles whose identifier is known (and differs): they break, `translated` fixes them. */
  titles: string[];
  /** Known titles whose identifier is not known yet: they break, the fix waits for it. */
  pendingTitles: string[];
  /** Already identifiers: unchanged by the migration. */
  identifiers: string[];
  /** Neither a known title nor a known identifier. */
  unknown: string[];
  /** `values` in order, each known title replaced by its identifier. */
  translated: string[];
}

/** One pass of `classifyTeamValue` over a list, for every rule that judges team lists. */
export function partitionTeamValues(teams: TeamDirectory, values: readonly string[]): TeamValuePartition {
  const partition: TeamValuePartition = { titles: [], pendingTitles: [], identifiers: [], unknown: [], translated: [] };
  // Without the org's own teams (a repository scanned with at most a teams map), a value with
  // whitespace can still only be a title: identifiers cannot hold whitespace. With the org's teams
  // known, it is a team that no longer exists, which the migration does not change.
  const blind = !teams.orgKnowsTeams;
  for (const value of values) {
    const status = classifyTeamValue(teams, value);
    // `"team": ""` sets no team: nothing the migration changes (issue 22).
    if (value.trim() === '') partition.identifiers.push(value);
    else if (status.state === 'title') partition.titles.push(value);
    else if (status.state === 'title-unknown-identifier' || (status.state === 'unknown' && blind && /\s/.test(value))) partition.pendingTitles.push(value);
    else if (status.state === 'identifier') partition.identifiers.push(value);
    else partition.unknown.push(value);
    partition.translated.push(status.state === 'title' ? status.identifier : value);
  }
  return partition;
}

/** A short clause for suggestions about titles without a known identifier. */
export function unknownIdentifierHint(titles: readonly string[]): string {
  const list = titles.map((t) => JSON.stringify(t)).join(', ');
  return `the identifier of ${list} is not known yet: the migration assigns it; pass --teams-map or re-run once the _team entities exist`;
}
