/**
 * Issue 39, held-out: a condition over a single team-typed input, in an org whose teams are known by
 * title only. An empty string the expression writes is no identifier the migration could give a
 * team, and a single team input holds one team (or none), never two: whether the user picked a team
 * is the same question before and after the migration.
 */
import { describe, expect, it } from 'vitest';
import { useJqEngine } from '../support/jq-engine.js';
import { judged, org } from './two-worlds.js';

const jq = useJqEngine();
const TITLES_ONLY = ['Billing Crew', 'Vault', 'Help Desk Tools', 'api', 'Edge-Net'].map((name) => ({ name }));
const LOCATION = 'trigger.userInputs.properties.note.required.jqQuery';

const action = (required: string) =>
  org(
    {
      actions: [
        {
          identifier: 'assign',
          title: 'Assign',
          trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service', userInputs: { properties: { owner: { type: 'string', format: 'team' }, note: { type: 'string', required: { jqQuery: required } } } } },
          invocationMethod: { type: 'WEBHOOK', url: 'https://example.com' },
        },
      ],
    },
    TITLES_ONLY,
  );

describe('a single team input, teams known by title only', () => {
  for (const required of ['(.form.owner // "") | length > 0', '.form.owner | type == "string"', '[.form.owner // empty] | length == 1']) {
    it(`${required}: whether a team was picked does not change`, () => {
      // What jq gives for one picked team, whatever string it is, and for none.
      const answers = ['Help Desk Tools', 'help_desk_tools', 't7919', null].map((picked) => JSON.stringify(jq.evaluate({ form: { owner: picked } }, required)));
      expect(new Set(answers.slice(0, 3)).size).toBe(1);
      expect(judged(jq, action(required), LOCATION).finding.verdict).toBe('unaffected');
    });
  }
});
