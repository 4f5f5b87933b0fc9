/**
 * Issue 39, item 4: a calculation's readers are filled with their own blueprint's calculations. Two
 * blueprints each hold a calculation named `lead`: on `service` it passes a team on (`.team | first`),
 * on `repository` it reads the entity's tier, nothing of teams. A reader of `lead` on `repository`
 * (a calculation, an action's visibility over the entity) reads no team value; one on `service` does.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { useJqEngine } from '../support/jq-engine.js';
import { org, TEAMS } from './two-worlds.js';

const jq = useJqEngine();
const title = String(TEAMS[0]!.name);

const blueprint = (identifier: string, lead: string) => ({
  identifier,
  title: identifier,
  schema: { properties: { tier: { type: 'string' } } },
  relations: {},
  calculationProperties: {
    lead: { title: 'Lead', type: 'string', calculation: lead },
    is_lead: { title: 'Is lead', type: 'boolean', calculation: `.properties.lead == ${JSON.stringify(title)}` },
  },
});

const snapshot = org({
  blueprints: [blueprint('service', '.team | first'), blueprint('repository', '.properties.tier')],
  actions: [
    {
      identifier: 'archive',
      title: 'Archive',
      trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'repository', userInputs: { properties: { reason: { type: 'string', visible: { jqQuery: `.entity.properties.lead == ${JSON.stringify(title)}` } } } } },
      invocationMethod: { type: 'WEBHOOK', url: 'https://example.com' },
    },
  ],
});

describe('calculations of the same name on two blueprints', () => {
  let report: ReturnType<typeof analyze>;
  beforeAll(() => {
    report = analyze(buildCatalog(snapshot, { jq }));
  });
  const at = (type: string, identifier: string, location: string) =>
    [...report.findings, ...(report.verified ?? [])].find((f) => f.resource.type === type && f.resource.identifier === identifier && f.location === location);

  it('a reader on the blueprint whose calculation passes a team on compares a team value', () => {
    expect(at('blueprint', 'service', 'calculationProperties.is_lead.calculation')?.verdict).toBe('breaks');
  });

  it('a reader on the other blueprint reads its own calculation, which holds no team value', () => {
    expect(at('blueprint', 'repository', 'calculationProperties.is_lead.calculation')).toBeUndefined();
  });

  it("an action's expression reads the calculation of the blueprint it runs on", () => {
    expect(at('action', 'archive', 'trigger.userInputs.properties.reason.visible.jqQuery')).toBeUndefined();
  });
});
