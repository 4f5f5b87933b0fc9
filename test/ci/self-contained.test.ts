import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every file under these paths (the user's docs, the report's code and templates, the action). */
function filesUnder(...paths: string[]): string[] {
  return paths.flatMap((path) => (statSync(path).isDirectory() ? filesUnder(...readdirSync(path).map((name) => join(path, name))) : [path]));
}

describe('the project stands alone', () => {
  it('no doc, template, report code or action points outside it (../shared) or cites spec sections (§) a user does not have', () => {
    const files = filesUnder('docs', 'templates', 'src/report', 'src/cli.ts', 'src/cli-text.ts', 'action.yml', 'action', '.github');
    expect(files.length).toBeGreaterThan(10);
    const offending = files.filter((file) => /\.\.\/shared|§|contracts\.md|product\.md/.test(readFileSync(file, 'utf8')));
    expect(offending).toEqual([]);
  });
});
