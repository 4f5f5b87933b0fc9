import { describe, expect, test } from 'vitest';
import { analyzeJsonPayload } from '../../src/repo/api-scripts.js';
import { sourceText } from '../../src/repo/source-text.js';
import { brief, context, judged } from './helpers.js';

const SAMPLE = `{
  "trigger": { "by": { "orgId": "org_1", "userId": "u1", "user": { "email": "a@example.com" } }, "origin": "UI" },
  "inputs": { "name": "x" },
  "entity": { "identifier": "svc", "title": "Svc", "team": ["Platform Team"], "properties": {}, "relations": {} }
}`;

describe('a sample of the jq context in a docs folder', () => {
  test('is what expressions read, not an entity to migrate: no finding', () => {
    expect(judged(analyzeJsonPayload, sourceText('docs/context.json', SAMPLE), context()).findings).toEqual([]);
    expect(judged(analyzeJsonPayload, sourceText('docs/context.json', `{"entity": {"identifier": "svc", "team": ["Platform Team"]}}`), context()).findings).toEqual([]);
  });

  test('an entity body with the same team is still one', () => {
    const findings = judged(analyzeJsonPayload, sourceText('payloads/svc.json', `{"identifier": "svc", "blueprint": "service", "team": ["Platform Team"]}`), context()).findings;
    expect(brief(findings)).toEqual([{ at: 'payloads/svc.json:1', category: 'external-ownership', rewrite: '"team": ["platform"]', verdict: 'breaks' }]);
  });
});
