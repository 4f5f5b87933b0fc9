/**
 * Issue 39: after the migration, what works today decides. A team value that no team of the org
 * holds today, neither as identifier nor as title, matches nothing now, whatever it matched before;
 * the teams it could have meant are those whose title or identifier it spells alike (case and
 * punctuation aside, or two edits away).
 */
import { classifyTeamValue, type TeamDirectory } from '../catalog/teams.js';
import { editDistance } from '../edit-distance.js';

/** The values no team of the org holds today; none where the org does not name its teams. */
export function valuesNoTeamHolds(directory: TeamDirectory, values: readonly string[]): string[] {
  if (!directory.orgKnowsTeams) return [];
  return [...new Set(values.filter((value) => value.trim() !== '' && classifyTeamValue(directory, value).state === 'unknown'))];
}

/**
 * The values no team of the org meets under what the rule does with them (`meets`, by the rule's
 * operator), among the org's team values today: identifiers, and titles where `$team` is read
 * (a title there is left to the rest of the judge). A prefix a team starts with is met; so is a
 * value written in another case where the comparison folds case.
 */
export function valuesNoTeamMeets(directory: TeamDirectory, values: readonly string[], meets: (spelling: string, value: string) => boolean, held: 'identifiers' | 'titles' | 'identifiers and titles'): string[] {
  if (!directory.orgKnowsTeams) return [];
  const spellings = [...(held === 'titles' ? [] : directory.identifiers), ...(held === 'identifiers' ? [] : directory.byTitle.keys())];
  const candidates = held === 'identifiers and titles' ? valuesNoTeamHolds(directory, values) : [...new Set(values.filter((value) => value.trim() !== ''))];
  return candidates.filter((value) => !spellings.some((spelling) => meets(spelling, value)));
}

/**
 * After the migration, each value one team holds as its identifier today that another team held
 * as its title before it (as the operator meets them), in words: it matched the one team then and
 * matches the other now, and nothing tells which it is meant for.
 */
export function identifiersThatWereTitles(directory: TeamDirectory, values: readonly string[], meets: (spelling: string, value: string) => boolean): string[] {
  const teams = [...directory.byTitle.values()];
  const named = (list: readonly { title: string; identifier?: string }[]) => list.map((team) => `"${team.title}" (${JSON.stringify(team.identifier ?? team.title)})`).join(' and ');
  return [...new Set(values)].flatMap((value) => {
    const now = teams.filter((team) => team.identifier !== undefined && meets(team.identifier, value));
    const then = teams.filter((team) => meets(team.title, value) && !now.includes(team));
    return now.length > 0 && then.length > 0 ? [`${JSON.stringify(value)} names team ${named(now)} today, by identifier, and named team ${named(then)} before the migration, by title`] : [];
  });
}

const squash = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/** Per value no team holds, the teams it could have meant: `"x": perhaps "y" (Y)`. */
export const whatEachMeant = (directory: TeamDirectory, values: readonly string[]): string[] =>
  values.map((value) => {
    const teams = teamsItCouldMean(directory, value);
    return `${JSON.stringify(value)}: ${teams.length > 0 ? `perhaps ${teams.join(' or ')}` : 'no team of the org is spelled alike'}`;
  });

/** The org's teams a value could have meant, as `"identifier" (title)`. */
export function teamsItCouldMean(directory: TeamDirectory, value: string): string[] {
  const wanted = squash(value);
  const found: string[] = [];
  for (const team of directory.byTitle.values()) {
    const spellings = [team.title, ...(team.identifier !== undefined ? [team.identifier] : [])].map(squash);
    const alike = spellings.some((s) => s === wanted || (wanted.length >= 3 && s.length >= 3 && (s.includes(wanted) || wanted.includes(s))) || (Math.abs(s.length - wanted.length) <= 2 && editDistance(s, wanted) <= 2));
    if (alike) found.push(team.identifier !== undefined ? `${JSON.stringify(team.identifier)} (${team.title})` : `the identifier of "${team.title}"`);
  }
  return found;
}
