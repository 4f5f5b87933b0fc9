import type { TeamsMap } from './catalog/teams.js';
import { InputError } from './errors.js';
import { isObject, keyedRecord } from './model/json.js';
import { shortJson } from './json-input.js';
import { readYamlInput } from './read-yaml-input.js';

/** `--teams-map FILE`: JSON or YAML, a flat map of team title → team identifier. */
export async function readTeamsMap(path: string): Promise<TeamsMap> {
  const document = await readYamlInput(path, 'teams map', 'JSON or YAML');
  if (!isObject(document)) throw new InputError(`${path}: expected a map of team title to team identifier`);
  const map = keyedRecord<string>();
  for (const [title, identifier] of Object.entries(document)) {
    if (typeof identifier !== 'string' || identifier.trim() === '') {
      throw new InputError(`${path}: team "${title}": expected an identifier string, got ${shortJson(identifier)}`);
    }
    if (/\s/.test(identifier)) {
      throw new InputError(`${path}: team "${title}": identifier ${JSON.stringify(identifier)} contains whitespace, which identifiers cannot`);
    }
    map[title] = identifier;
  }
  return map;
}
