import yaml from 'js-yaml';
import { InputError } from './errors.js';
import { readInputFile } from './read-input-file.js';
import { yamlExpansionProblem } from './yaml-expansion.js';

/**
 * One of the user's JSON or YAML input files (the teams map, the orgs file), loaded as plain data:
 * YAML is a superset of JSON, so one parser reads both, with JSON's schema; a document whose
 * aliases expand past what its text could hold is refused. Every failure is one InputError line,
 * naming the file as `kinds` describes it ("JSON or YAML").
 */
export async function readYamlInput(path: string, what: string, kinds: string): Promise<unknown> {
  const text = await readInputFile(path, what);
  let document: unknown;
  try {
    document = yaml.load(text, { filename: path, schema: yaml.JSON_SCHEMA });
  } catch (error) {
    // The exception's `reason` names the fault without the text around it (which may hold a pasted secret).
    const reason = error instanceof yaml.YAMLException ? error.reason : (error as Error).message;
    const mark = error instanceof yaml.YAMLException && error.mark ? ` (line ${error.mark.line + 1}, column ${error.mark.column + 1})` : '';
    throw new InputError(`${path}: not valid ${kinds}: ${reason}${mark}`, { cause: error });
  }
  const problem = yamlExpansionProblem(document, text);
  if (problem !== undefined) throw new InputError(`${path}: not read: ${problem}`);
  return document;
}
