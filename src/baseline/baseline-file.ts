import { InputError } from '../errors.js';
import { writeFileAtomic } from '../output/output-set.js';
import { readJsonInput } from '../json-input.js';
import { renderBaseline, validateBaseline, type Baseline } from './baseline.js';

/** Read and check a baseline; a missing, unreadable or malformed file is one InputError line (exit 2). */
export async function readBaselineFile(path: string): Promise<Baseline> {
  const document = await readJsonInput(path, 'baseline', { missingHint: ' (create one with --write-baseline FILE)' });
  return validateBaseline(document, path);
}

export async function writeBaselineFile(path: string, baseline: Baseline): Promise<void> {
  try {
    await writeFileAtomic(path, renderBaseline(baseline));
  } catch (error) {
    throw new InputError(`${path}: cannot write the baseline: ${(error as Error).message}`, { cause: error });
  }
}
