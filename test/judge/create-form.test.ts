/**
 * A CREATE action's form is filled before its entity exists: the service gives its jq (`visible`,
 * `required`, `default`, a dataset's `jqQuery`) an empty entity, as it gives its run one
 * (docs/decision-table.md, "What it runs on"). What such jq reads of the entity holds no team in
 * either world; on a DAY-2 action the entity it runs on holds its teams.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { useJqEngine } from '../support/jq-engine.js';
import { org } from './two-worlds.js';

const jq = useJqEngine();

const SHOWN = '.entity.team | index("QA") != null';
const OFFERED = { combinator: 'and', rules: [{ property: '$team', operator: 'containsAny', value: { jqQuery: '.entity.team' } }] };

const action = (operation: string) => ({
  identifier: `provision_${operation.toLowerCase().replace('-', '')}`,
  title: 'Provision',
  trigger: {
    type: 'self-service',
    operation,
    blueprintIdentifier: 'service',
    userInputs: {
      properties: {
        size: { type: 'string', visible: { jqQuery: SHOWN }, required: { jqQuery: SHOWN }, default: { jqQuery: '.entity.team | first' } },
        peer: { type: 'string', format: 'entity', blueprint: 'service', dataset: OFFERED },
      },
    },
  },
  invocationMethod: { type: 'WEBHOOK', url: 'https://example.com' },
});

const findingsAt = (operation: string) => {
  const report = analyze(buildCatalog(org({ actions: [action(operation)] }), { jq }));
  return new Map(report.findings.map((f) => [f.location.replace('trigger.userInputs.properties.', ''), f]));
};

describe("a CREATE action's form has no entity", () => {
  it('its inputs reading the entity\'s teams change nothing', () => {
    const found = findingsAt('CREATE');
    for (const key of ['size.visible.jqQuery', 'size.required.jqQuery', 'size.default.jqQuery', 'peer.dataset.rules[0]', 'peer.dataset.rules[0].value.jqQuery']) expect(found.get(key), key).toBeUndefined();
  });

  it("a DAY-2 action's do: the entity it runs on holds its teams", () => {
    const found = findingsAt('DAY-2');
    expect(found.get('size.visible.jqQuery')?.verdict).toBe('breaks');
    expect(found.get('size.required.jqQuery')?.verdict).toBe('breaks');
  });
});
