import { expect } from 'vitest';
import { olderNodeLine } from '../../src/node-support.js';
import { ENGINES_NODE } from '../../src/version.js';

/**
 * A spawned CLI's stderr after the note it must print first when this Node is older than
 * `engines` (the suite runs on 22 and 24 in CI, where there is none). Asserts the note is there,
 * first, whenever this Node calls for it, so the tests of other lines hold on any Node.
 */
export function afterNodeNote(stderr: string): string {
  const note = olderNodeLine(process.versions.node, ENGINES_NODE);
  if (note === undefined) {
    expect(stderr).not.toContain('is older than this tool supports');
    return stderr;
  }
  expect(stderr.startsWith(note)).toBe(true);
  return stderr.slice(note.length);
}
