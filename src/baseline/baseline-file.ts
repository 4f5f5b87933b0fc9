import { readJsonInput } from '../json-input.js';
import { validateBaseline, type Baseline } from './baseline.js';

/** Read and check a baseline; a missing, unreadable or malformed file is one InputError line (exit 2). */
export async function readBaselineFile(path: string): Promise<Baseline> {
  const document = await readJsonInput(path, 'baseline', { missingHint: ' (create one with --write-baseline FILE)' });
  return validateBaseline(document, path);
}
