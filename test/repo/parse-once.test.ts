import { describe, expect, it } from 'vitest';
import { parseCode } from '../../src/repo/code-tree.js';
import { SourceSyntaxError, sourceText } from '../../src/repo/source-text.js';
import { analyzeJsonPayload } from '../../src/repo/api-scripts.js';
import type { FileResource } from '../../src/repo/file-resources.js';
import { emptyFacts } from '../../src/repo/repository-facts.js';
import { context } from './helpers.js';

/**
 * Issue 25 item 4: a scan reads each candidate file for its blueprints, then judges it, and a
 * Terraform file also gives its configuration's values: three parses of one text. The tree is
 * kept with the file's text, so every pass after the first gets the same tree.
 */
describe('each file is parsed once however many passes read it', () => {
  const text = 'resource "port_blueprint" "svc" {\n  identifier = "svc"\n  team_inheritance = { path = "team" }\n}\n';

  it('the same file and dialect give the same tree, not a second parse', () => {
    const source = sourceText('main.tf', text);
    const first = parseCode(source, 'hcl');
    expect(parseCode(source, 'hcl')).toBe(first);
    expect(first.items.length + first.entries.length).toBeGreaterThan(0);
  });

  it('another dialect, another range or another file is parsed on its own', () => {
    const source = sourceText('main.tf', text);
    const whole = parseCode(source, 'hcl');
    expect(parseCode(source, 'hcl', 0, 8)).not.toBe(whole);
    expect(parseCode(source, 'js')).not.toBe(whole);
    expect(parseCode(sourceText('main.tf', text), 'hcl')).not.toBe(whole);
  });

  it('a file that cannot be read fails the same way in every pass', () => {
    const source = sourceText('broken.tf', 'locals {\n  a = "unterminated\n}\n');
    const failure = () => {
      try {
        parseCode(source, 'hcl');
      } catch (error) {
        return error;
      }
      return undefined;
    };
    const first = failure();
    expect(first).toBeInstanceOf(SourceSyntaxError);
    expect(failure()).toBe(first);
  });
});

describe("a JSON file's documents are found once for every reading of a scan", () => {
  it('each reading finds the same resources, and the same problems', () => {
    const source = sourceText('resources.json', '[{"identifier": "svc", "schema": {}, "teamInheritance": {"path": "team"}}, {"identifier": "deploy", "trigger": {}}, {"note": "{\\"a\\": \\"oops}"}]');
    const gathered = (): FileResource[] => {
      const sites = analyzeJsonPayload(source, { gathering: emptyFacts() }).sites;
      return sites.flatMap((site) => (site.kind === 'resources' ? site.resources : []));
    };
    const first = gathered();
    expect(first.map((r) => r.kind)).toEqual(['blueprint', 'action']);
    expect(gathered()).toEqual(first);
    expect(gathered()[0]).toBe(first[0]);
    const problems = analyzeJsonPayload(source, context()).problems;
    expect(problems.length).toBeGreaterThan(0);
    expect(analyzeJsonPayload(source, context()).problems).toEqual(problems);
  });
});
