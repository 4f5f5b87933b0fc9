/** Issue 21 item 5: the measured impact reaches the finding's card, its order, summary.md and SARIF. */
import { describe, expect, it } from 'vitest';
import type { Finding, Report } from '../../src/model/finding.js';
import { impactSentence, impactWeight } from '../../src/report/impact-text.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { renderSarif } from '../../src/report/sarif.js';

const finding = (id: string, impact?: Finding['impact']): Finding => ({
  id,
  kind: 'manual',
  category: 'calculation-property',
  resource: { type: 'blueprint', identifier: 'service' },
  location: `calculationProperties.${id}.calculation`,
  evidence: '.team | index("QA")',
  reason: 'It changes.',
  suggestion: 'Fix it.',
  verdict: 'breaks',
  ...(impact && { impact }),
});

const report = (findings: Finding[]): Report => ({
  format: 'impact-report/1',
  organization: { id: 'o', name: 'O' },
  summary: { automatic: 0, manual: findings.length, byCategory: { 'calculation-property': findings.length } },
  incomplete: [],
  findings,
});

describe('impact in words and as an order', () => {
  it('says what changes, and weighs people above entities', () => {
    const entities = finding('a', { entities: { changed: 2, read: 5, example: { identifier: 'svc', before: '0', after: 'null' } } });
    const people = finding('b', { users: { loses: 1, gains: 0 } });
    expect(impactSentence(entities)).toBe('Blast radius: 2 of 5 entities change value (svc: 0 → null).');
    expect(impactSentence(people)).toBe('Blast radius: 1 person loses it, 0 gain it.');
    expect(impactSentence(finding('c'))).toBe('');
    expect(impactWeight(people)).toBeGreaterThan(impactWeight(entities));
  });

  it('summary.md and SARIF carry the counts', () => {
    const r = report([finding('a', { entities: { changed: 2, read: 5 } }), finding('b', { users: { loses: 3, gains: 1 } }), finding('c')]);
    expect(renderMarkdown(r)).toContain('**Impact:** 2 findings measured on the org\'s data: 2 entities change value or result; 3 people lose and 1 gains a permission');
    const sarif = JSON.parse(renderSarif(r, { toolVersion: '0.0.0', orgArtifactUri: 'org.json' })) as { runs: { properties: { impact: unknown }; results: { message: { text: string }; properties: { impact?: unknown } }[] }[] };
    expect(sarif.runs[0]!.properties.impact).toEqual({ findings: 2, entitiesChanged: 2, usersLose: 3, usersGain: 1 });
    expect(sarif.runs[0]!.results[1]!.properties.impact).toEqual({ users: { loses: 3, gains: 1 } });
    expect(sarif.runs[0]!.results[1]!.message.text).toContain('Blast radius: 3 people lose it, 1 gains it.');
  });
});
