import yaml from 'js-yaml';
import type { TeamsMap } from './catalog/teams.js';
import { InputError } from './errors.js';
import { isObject, keyedRecord } from './model/json.js';
import { shortJson } from './json-input.js';
import { readInputFile } from './read-input-file.js';
import { yamlExpansionProblem } from './yaml-expansion.js';

/** `--teams-map FILE`: JSON or YAML, a flat map of team title → team identifier. */
export async function readTeamsMap(path: string): Promise<TeamsMap> {
  const text = await readInputFile(path, 'teams map');
  let document: unknown;
  try {
    // YAML is a superset of JSON, so one parser reads both.
    document = yaml.load(text, { filename: path, schema: yaml.JSON_SCHEMA });
  } catch (error) {
    const reason = error instanceof yaml.YAMLException ? error.reason : (error as Error).message;
    const mark = error instanceof yaml.YAMLException && error.mark ? ` (line ${error.mark.line + 1}, column ${error.mark.column + 1})` : '';
    throw new InputError(`${path}: not valid JSON or YAML: ${reason}${mark}`, { cause: error });
  }
  const problem = yamlExpansionProblem(document, text);
  if (problem !== undefined) throw new InputError(`${path}: not read: ${problem}`);
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
