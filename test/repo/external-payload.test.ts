import { describe, expect, test } from 'vitest';
import { extractReferences, teamMetaPaths } from '../../src/jq/references.js';
import { loadJqEngine } from '../../src/jq/engine.js';
import { analyzeJsonPayload } from '../../src/repo/api-scripts.js';
import { sourceText } from '../../src/repo/source-text.js';
import { context, judged } from './helpers.js';

const jq = await loadJqEngine();

const reads = (expression: string) => {
  const result = extractReferences(expression);
  if (!result.ok) throw new Error(result.error.message);
  return teamMetaPaths(result.references).map((path) => expression.slice(path.start, path.end));
};

/** An automation whose webhook body forwards a field of another webhook's body, named team by its sender. */
const automation = (body: string) =>
  JSON.stringify({
    identifier: 'forward',
    title: 'Forward',
    trigger: { type: 'automation', event: { type: 'RUN_UPDATED', actionIdentifier: 'page_oncall' } },
    invocationMethod: { type: 'WEBHOOK', url: 'https://hooks.example.com', body: { value: `{{ ${body} }}` } },
  });

describe('a team field of an external payload is not the team meta property', () => {
  test('under .body / .headers / .queryParams it is the sender\'s own field; on the org\'s data it still is a team read', () => {
    expect(reads('.payload.body.team.summary')).toEqual([]);
    expect(reads('.body.data.team')).toEqual([]);
    expect(reads('.headers.team')).toEqual([]);
    expect(reads('.event.diff.after.team')).toEqual(['.event.diff.after.team']);
    expect(reads('.entity.team')).toEqual(['.entity.team']);
    // The relation named team is read by target (removed relations), never as the meta property.
    expect(reads('.event.diff.after.relations.team')).toEqual([]);
  });

  test('an automation that forwards .payload.body.team.summary gives no finding; one that forwards .event.diff.after.team does', () => {
    const ctx = context({ jq });
    expect(judged(analyzeJsonPayload, sourceText('automations/forward.json', automation('.payload.body.team.summary')), ctx).findings).toEqual([]);
    const own = judged(analyzeJsonPayload, sourceText('automations/forward.json', automation('.event.diff.after.team')), ctx).findings;
    expect(own.map((f) => f.category)).toEqual(['action-mapping']);
  });
});
