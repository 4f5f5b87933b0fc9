import { openOutputSet } from '../../src/output/output-set.js';

/**
 * What the next run on `out` does before writing, on its own: finish a cut commit, clear what a
 * killed run left. `open` is the output set to use (a copy transpiled for a child process).
 */
export async function recoverOutputs(out: string, open: typeof openOutputSet = openOutputSet): Promise<void> {
  const outputs = await open(out);
  try {
    await outputs.prepare();
  } finally {
    await outputs.close();
  }
}
