/**
 * Issue 29, class 6: a value that already yields team identifiers (a lookup table, a literal
 * identifier) in an org that has not migrated sets teams that do not exist yet: it breaks now and
 * is right afterwards, so it is applied with the migration, and the finding says so. In the
 * migrated org the same value is right. The expected class is computed by running jq in both worlds.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';
import { useJqEngine } from '../support/jq-engine.js';
import { expectedClass, expectedVerdict, judged, judgeTable, migrationPart, org, TEAMS, type Row } from './two-worlds.js';

const jq = useJqEngine();

const ROWS: Row[] = [
  { name: 'a lookup table from a property to identifiers', expression: '{"ds": "data_science", "quality": "qa"}[.entity.properties.area // "ds"]', shows: 'changed' },
  { name: 'an identifier picked by a condition', expression: 'if (.entity.team | length) > 0 then ["qa"] else ["data_science"] end', shows: 'changed' },
  { name: 'the entity\'s own teams (the control: a title before, its identifier after)', expression: '.entity.team', shows: 'substituted' },
  { name: 'a title-to-identifier table over the entity\'s teams', expression: '{"Data Science": "data_science", "QA": "qa", "Platform (EU)": "platform", "Alpha": "z_alpha", "Beta": "a_beta"} as $id | [.entity.team[] | $id[.] // .]', shows: 'changed' },
  { name: 'a lookup through to_entries, yielding an identifier', expression: '[{"ds": "data_science"} | to_entries[] | select(.key == "ds") | .value]', shows: 'changed' },
];

const snapshot = (expression: string, migrated: boolean): OrgSnapshot =>
  org({
    ...migrationPart(migrated),
    actions: [
      {
        identifier: 'create',
        title: 'Create',
        trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service', userInputs: { properties: {} } },
        invocationMethod: { type: 'UPSERT_ENTITY', blueprintIdentifier: 'service', mapping: { identifier: '{{ .inputs.name }}', team: `{{ ${expression} }}` } },
      },
    ],
  });

// Breaks while the org holds titles, and says to apply it with the migration; right once migrated.
const table = { jq, kind: 'action-run', rows: ROWS, teamValue: true, location: 'invocationMethod.mapping.team' } as const;
judgeTable('written for identifiers, in an org that has not migrated: (mapping team) → (class, verdict, advice)', {
  ...table,
  snapshot: (row) => snapshot(row.expression, false),
  verdict: (klass) => expectedVerdict(klass, 'team-value'),
  check: ({ klass, finding }) => {
    if (klass === 'changed') expect(finding.suggestion).toContain('apply it with the migration');
  },
});
judgeTable('written for identifiers, once the org has migrated: (mapping team) → (class, verdict)', {
  ...table,
  snapshot: (row) => snapshot(row.expression, true),
  verdict: () => 'unaffected',
});

describe('written for identifiers beyond an action\'s mapping: (value, org state) → (verdict, advice)', () => {
  it('a lookup table over an integration\'s payload that yields identifiers: the same, read from its values', () => {
    const expression = '{"ds": "data_science", "quality": "qa"}[.owner]';
    // Run on a payload the source could send: it yields an identifier that is no team's title.
    const yielded = jq.evaluate({ owner: 'ds' }, expression);
    expect(yielded.ok && TEAMS.some((t) => t.identifier === yielded.values[0] && t.name !== yielded.values[0])).toBe(true);
    const integration = (migrated: boolean) =>
      org({
        ...migrationPart(migrated),
        integrations: [{ installationId: 'pd', integrationType: 'pagerduty', config: { resources: [{ kind: 'services', port: { entity: { mappings: { identifier: '.id', blueprint: '"service"', team: expression } } } }] } }],
      });
    const location = 'config.resources[0].port.entity.mappings.team';
    const before = judged(jq, integration(false), location).finding;
    expect(before.verdict).toBe('breaks');
    expect(before.suggestion).toContain('apply it with the migration');
    expect(judged(jq, integration(true), location).finding.verdict).toBe('unaffected');
  });

  it('a literal identifier as a mapping\'s team: the same', () => {
    const literal = (migrated: boolean) =>
      org({
        ...migrationPart(migrated),
        actions: [
          {
            identifier: 'create',
            title: 'Create',
            trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service', userInputs: { properties: {} } },
            invocationMethod: { type: 'UPSERT_ENTITY', blueprintIdentifier: 'service', mapping: { identifier: '{{ .inputs.name }}', team: ['data_science'] } },
          },
        ],
      });
    const before = judged(jq, literal(false), 'invocationMethod.mapping.team').finding;
    expect(before.verdict).toBe('breaks');
    expect(before.suggestion).toContain('apply it with the migration');
    const after = analyze(buildCatalog(literal(true), { jq }));
    expect(after.findings.filter((f) => f.location === 'invocationMethod.mapping.team')).toEqual([]);
  });
});

describe('a lookup keyed by team identifiers: (calculation, org state) → (class, verdict)', () => {
  const expression = '{"qa": "us", "data_science": "eu"} as $r | [.team[] | $r[.] // "none"] | first // "none"';
  const calculation = (migrated: boolean): OrgSnapshot =>
    org({
      ...migrationPart(migrated),
      blueprints: [{ identifier: 'service', title: 'Service', schema: { properties: {} }, relations: {}, calculationProperties: { region: { title: 'Region', type: 'string', calculation: expression } } }],
    });
  it('changes with the migration, and with its keys read as titles gives before what it gives after', () => {
    expect(expectedClass(jq, 'entity', expression)).toBe('changed');
    const readBack = expression.replace('"qa"', '"QA"').replace('"data_science"', '"Data Science"');
    expect(TEAMS.map((t) => jq.evaluate({ team: [t.name] }, readBack))).toEqual(TEAMS.map((t) => jq.evaluate({ team: [t.identifier] }, expression)));
  });
  it('before the migration it breaks and is applied with the migration; once migrated it is right', () => {
    const before = judged(jq, calculation(false), 'calculationProperties.region.calculation').finding;
    expect(before.verdict).toBe('breaks');
    expect(before.suggestion).toContain('apply it with the migration');
    expect(judged(jq, calculation(true), 'calculationProperties.region.calculation').finding.verdict).toBe('unaffected');
  });
});
