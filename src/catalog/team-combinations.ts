/**
 * The combinations of teams the org really holds (issue 29): `$team` is a set, and a result that
 * changes only for two teams together (their title order and identifier order differ) matters
 * only if some entity or person holds those teams together.
 */
import type { EntityRecord } from '../model/snapshot.js';
import type { Person } from './people.js';
import type { TeamDirectory } from './teams.js';

/** Ours: distinct combinations kept; the judge tries a few of them per expression. */
const MAX_COMBINATIONS = 200;

/**
 * The distinct sets of two or more teams, as titles, in the order first seen; undefined when the
 * org recorded neither entities nor users (then nothing says which combinations exist).
 */
export function teamCombinations(entities: ReadonlyMap<string, readonly EntityRecord[]> | undefined, people: readonly Person[], directory: TeamDirectory): (readonly string[])[] | undefined {
  if (entities === undefined && people.length === 0) return undefined;
  const titleOf = new Map<string, string>();
  for (const team of directory.byTitle.values()) if (team.identifier !== undefined) titleOf.set(team.identifier, team.title);
  const asTitle = (value: string) => (directory.byTitle.has(value) ? value : (titleOf.get(value) ?? value));
  const seen = new Map<string, readonly string[]>();
  const add = (values: readonly string[]) => {
    const titles = [...new Set(values.map(asTitle))];
    if (titles.length < 2 || seen.size >= MAX_COMBINATIONS) return;
    const key = JSON.stringify([...titles].sort());
    if (!seen.has(key)) seen.set(key, titles);
  };
  for (const [blueprint, records] of entities ?? []) {
    if (blueprint === '_team') continue;
    for (const record of records) {
      const team = record.team;
      if (Array.isArray(team)) add(team.filter((v): v is string => typeof v === 'string'));
    }
  }
  for (const person of people) add(person.names);
  return [...seen.values()];
}
