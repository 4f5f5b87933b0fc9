import { describe, expect, it } from 'vitest';
import { parseCode } from '../../src/repo/code-tree.js';
import { sourceText } from '../../src/repo/source-text.js';
import { analyzeJsonPayload } from '../../src/repo/api-scripts.js';
import { emptyDocuments, findDocuments, mayHoldDocuments } from '../../src/repo/file-resources.js';
import type { Problems } from '../../src/repo/tree-to-json.js';
import { emptyFacts } from '../../src/repo/repository-facts.js';
import { context } from './helpers.js';

/**
 * Issue 41: most JSON files of a repository (package settings, fixtures, lock files) hold no
 * document, and parsing each with the file parser cost a third of the scan's reading. Only strict
 * JSON that names no key a document needs is left unparsed: the parser would find nothing in it.
 */
describe('JSON files the file parser is not given', () => {
  /** What the file parser finds in the text: documents and problems. */
  const parsed = (text: string) => {
    const problems: Problems = [];
    return { documents: findDocuments(parseCode(sourceText('file.json', text), 'json'), { camelCase: false, problems }), problems };
  };

  const nothing = [
    '{"name": "pkg-1", "version": "1.0.0", "owners": ["platform"], "settings": {"key0": "value 0", "key1": "value 1"}}',
    '[]',
    '{}',
    '42',
    '"a string"',
    'null',
    '{"a": {"b": [1, 2.5e300, {"c": null, "d": true}]}, "\\u0061": "\\u00e9"}',
    `${'['.repeat(200)}1${']'.repeat(200)}`,
    '{"title": "Service", "description": "owned by Platform Team", "tags": ["a", "b"]}',
  ];

  it.each(nothing)('%s: left unparsed, and the parser finds nothing in it either', (text) => {
    expect(mayHoldDocuments(JSON.parse(text))).toBe(false);
    expect(parsed(text)).toEqual({ documents: emptyDocuments(), problems: [] });
    expect(analyzeJsonPayload(sourceText('file.json', text), context())).toEqual({ sites: [], problems: [] });
  });

  it('a key a document needs, however it is spelled or escaped, sends the file to the parser', () => {
    const escaped = '{"\\u0069dentifier": "svc", "schema": {}, "team_inheritance": {"path": "domain"}}';
    expect(mayHoldDocuments(JSON.parse(escaped))).toBe(true);
    const read = analyzeJsonPayload(sourceText('blueprint.json', escaped), { gathering: emptyFacts() });
    expect(read.sites.flatMap((site) => (site.kind === 'resources' ? site.resources.map((resource) => resource.kind) : []))).toEqual(['blueprint']);
    for (const key of ['Team', 'teams', '_user', 'trigger', 'widgets', 'execute', 'read', 'entities']) expect(mayHoldDocuments({ outer: [{ [key]: 1 }] })).toBe(true);
  });

  it('a string that may be a document written as text is read by the parser', () => {
    const text = JSON.stringify({ body: JSON.stringify({ identifier: 'svc', team: ['Platform Team'] }) });
    expect(mayHoldDocuments(JSON.parse(text))).toBe(true);
    expect(parsed(text).documents.entities).toHaveLength(1);
  });

  it('JSON the strict reader refuses (comments, trailing commas) is the parser\'s to read, as before', () => {
    const read = analyzeJsonPayload(sourceText('commented.json', '// the service\n{"identifier": "svc", "teamInheritance": {"path": "domain"},}'), { gathering: emptyFacts() });
    expect(read.sites.flatMap((site) => (site.kind === 'resources' ? site.resources.map((resource) => resource.kind) : []))).toEqual(['blueprint']);
  });
});
