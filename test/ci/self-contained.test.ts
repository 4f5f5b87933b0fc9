import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every file under these paths (the user's docs, the report's code and templates, the action). */
function filesUnder(...paths: string[]): string[] {
  return paths.flatMap((path) => (statSync(path).isDirectory() ? filesUnder(...readdirSync(path).map((name) => join(path, name))) : [path]));
}

describe('the project stands alone', () => {
  it('no doc, source, schema, template or action points outside it (../shared) or cites spec sections (§) a user does not have', () => {
    const files = filesUnder('docs', 'templates', 'src', 'schemas', 'action.yml', 'action', '.github', 'README.md', 'CONTRIBUTING.md');
    expect(files.length).toBeGreaterThan(100);
    // A public standard's section (RFC 9110 §5.6.7) is one a user has.
    const outside = /\.\.\/shared|(?<!RFC \d+ )§|(contracts|product|style|external-definitions|public-api-facts|catalog-service-interface)\.md/;
    const offending = files.filter((file) => outside.test(readFileSync(file, 'utf8')));
    expect(offending).toEqual([]);
  });
});
