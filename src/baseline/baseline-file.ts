import { writeFile } from 'node:fs/promises';
import { InputError } from '../errors.js';
import { assertJsonDepth } from '../json-input.js';
import { readInputFile } from '../read-input-file.js';
import { renderBaseline, validateBaseline, type Baseline } from './baseline.js';

/** Read and check a baseline; a missing, unreadable or malformed file is one InputError line (exit 2). */
export async function readBaselineFile(path: string): Promise<Baseline> {
  const text = await readInputFile(path, 'baseline', ' (create one with --write-baseline FILE)');
  assertJsonDepth(text, path, 'baseline');
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    // V8 may quote the offending text, newlines and all; the error stays one line.
    const why = (error as Error).message.replace(/\s+/g, ' ');
    throw new InputError(`${path}: the baseline is not valid JSON: ${why}`, { cause: error });
  }
  return validateBaseline(document, path);
}

export async function writeBaselineFile(path: string, baseline: Baseline): Promise<void> {
  try {
    await writeFile(path, renderBaseline(baseline));
  } catch (error) {
    throw new InputError(`${path}: cannot write the baseline: ${(error as Error).message}`, { cause: error });
  }
}
