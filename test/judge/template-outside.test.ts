/**
 * Templates handed to a receiver outside the service (webhook URL, body, headers; workflow
 * inputs): a substituted value is `review` before and after the migration, never fixed by the
 * org's values changing under it.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { useJqEngine } from '../support/jq-engine.js';
import { computeProgress } from '../../src/progress/compute-progress.js';
import { expectedClass, expectedVerdict, judged, org, type Row } from './two-worlds.js';

const ROWS: Row[] = [
  { name: 'the entity teams in a body', expression: '.entity.team', shows: 'substituted' },
  { name: 'joined into one string', expression: '.entity.team | join(",")', shows: 'substituted' },
  { name: 'a title test', expression: '.entity.team | index("QA") != null', shows: 'changed' },
  { name: 'who ran it: a run names the user, no teams', expression: '[.trigger.by.user.teams[]?.name]', shows: 'same' },
];

const jq = useJqEngine();

const action = (expression: string, type = 'WEBHOOK') => ({
  identifier: 'notify',
  title: 'Notify',
  trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service', userInputs: { properties: {} } },
  invocationMethod: type === 'WEBHOOK' ? { type, url: 'https://hooks.example.com/x', body: { owners: `{{ ${expression} }}` } } : { type, org: 'acme', repo: 'ops', workflow: 'notify.yml', workflowInputs: { owners: `{{ ${expression} }}` } },
});

describe('template to an outside receiver: (expression, teams) → (class, verdict)', () => {
  for (const type of ['WEBHOOK', 'GITHUB']) {
    for (const row of ROWS) {
      it(`${type}: ${row.name}`, () => {
        const klass = expectedClass(jq, 'action-run', row.expression);
        if (row.shows) expect(klass, 'the row shows what it says').toBe(row.shows);
        const location = type === 'WEBHOOK' ? 'invocationMethod.body.owners' : 'invocationMethod.workflowInputs.owners';
        const { finding } = judged(jq, org({ actions: [action(row.expression, type)] }), location);
        expect(finding.verdict).toBe(expectedVerdict(klass, 'outside'));
      });
    }
  }

  it('a substituted value is review in the migrated org too, and --since does not count it fixed', () => {
    const before = analyze(buildCatalog(org({ actions: [action('.entity.team')] }), { jq }));
    const migrated = org({
      blueprints: [{ identifier: 'service', title: 'Service', schema: { properties: {} }, relations: {}, ownership: { type: 'Direct' } }],
      entities: { service: [{ identifier: 's1', team: ['qa'] }], _team: [] },
      actions: [action('.entity.team')],
    });
    const after = analyze(buildCatalog(migrated, { jq }));
    const id = before.findings.find((f) => f.location === 'invocationMethod.body.owners')?.id;
    expect(before.findings.find((f) => f.id === id)?.verdict).toBe('review');
    expect(after.findings.find((f) => f.id === id)?.verdict).toBe('review');
    expect(computeProgress(before, after).fixed.map((f) => f.id)).not.toContain(id);
  });
});
