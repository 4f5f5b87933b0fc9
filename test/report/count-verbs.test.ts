/** Verbs agree with the counts before them, as the nouns do: "1 person loses", "3 people lose". */
import { describe, expect, it } from 'vitest';
import type { AccessChange } from '../../src/model/access.js';
import { accessLines, accessSummary } from '../../src/report/access-view.js';
import { impactSentence } from '../../src/report/impact-text.js';

const gate = (loses: string[], gains: string[], permission: AccessChange['permission'] = 'execute'): AccessChange =>
  ({ resource: { type: 'action', identifier: 'deploy' }, permission, loses, gains, ...(permission === 'visible' && { input: 'env' }) }) as AccessChange;

describe('counts and their verbs', () => {
  it('the blast radius: one entity changes, flips; one person loses, gains', () => {
    const one = impactSentence({ impact: { entities: { changed: 1, read: 5 }, scorecard: { flipped: 1 }, users: { loses: 1, gains: 1 } } } as never);
    expect(one).toBe('Blast radius: 1 of 5 entities changes value; 1 entity flips its result; 1 person loses it, 1 gains it.');
    const many = impactSentence({ impact: { entities: { changed: 2, read: 5 }, scorecard: { flipped: 2 }, users: { loses: 3, gains: 2 } } } as never);
    expect(many).toBe('Blast radius: 2 of 5 entities change value; 2 entities flip their result; 3 people lose it, 2 gain it.');
  });

  it('access lines and the headline', () => {
    expect(accessLines(gate(['a@x.io'], ['b@x.io'])).map((line) => line.text)).toEqual(['1 person loses the right to run this', '1 person gains the right to run this']);
    expect(accessLines(gate(['a@x.io', 'c@x.io'], [])).map((line) => line.text)).toEqual(['2 people lose the right to run this']);
    const summary = accessSummary([gate(['a@x.io'], ['b@x.io']), gate(['c@x.io'], ['d@x.io'], 'visible')]);
    expect(summary.headline).toBe('1 person loses access to 1 action');
    expect(summary.details).toEqual(['1 person gains access to 1 action', '1 person stops seeing 1 input', '1 person starts seeing 1 input']);
  });
});
