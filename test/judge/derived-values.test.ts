/**
 * Issue 29, class 4: values derived only from team values and literals (an object keyed by team,
 * `to_entries`, a lookup into such an object) are known on every context: they are run, never
 * sent to review as "reads values no context can know". A read of the entity's own data that the
 * contexts do not hold still is. Expected classes are computed here by running jq in both worlds.
 */
import { describe, expect, it } from 'vitest';
import { useJqEngine } from '../support/jq-engine.js';
import { expectedClass, expectedVerdict, judged, judgeTable, org, type Kind, type Row } from './two-worlds.js';

const jq = useJqEngine();

interface DerivedRow extends Row {
  kind: Kind;
}

const ROWS: DerivedRow[] = [
  { name: 'a lookup keyed by title', kind: 'entity', expression: '{"Data Science": "eu", "QA": "us"} as $region | [.team[] | $region[.] // "none"]', shows: 'changed' },
  { name: 'a lookup keyed by title and by identifier', kind: 'entity', expression: '{"Data Science": "eu", "data_science": "eu", "QA": "us", "qa": "us"} as $region | [.team[] | $region[.] // "none"]', shows: 'same' },
  { name: 'to_entries over a literal object, then a select by team', kind: 'entity', expression: '.team as $t | {"QA": 1, "qa": 1} | to_entries | map(select(.key as $k | $t | index($k) != null)) | length > 0', shows: 'same' },
  { name: 'with_entries over a literal object, counted with the teams', kind: 'entity', expression: '.team as $t | {"QA": "quality"} | with_entries(.value |= ascii_upcase) | to_entries | map(.value) | length + ($t | length)', shows: 'same' },
  { name: 'a lookup of the user\'s teams in a literal object', kind: 'user-input', expression: '({"Data Science": true} as $allowed | [.user.team[] | $allowed[.] // false] | any)', shows: 'changed' },
  { name: 'an object built from the teams, then has() a title', kind: 'entity', expression: '.team | map({key: ., value: true}) | from_entries | has("QA")', shows: 'changed' },
  { name: 'an object built from the teams, counted', kind: 'entity', expression: '[.team[] | {(.): 1}] | add // {} | keys | length', shows: 'same' },
  { name: 'with_entries keeping the user\'s teams of a title-keyed object', kind: 'user-input', expression: '.user.team as $t | {"QA": "on-call", "Beta": "on-call"} | with_entries(select(.key as $k | $t | index($k) != null)) | length > 0', shows: 'changed' },
  { name: 'the names as object keys (titles in both worlds)', kind: 'user-input', expression: '{"QA": 1} as $m | [.user.teams[].name | $m[.] // 0] | add // 0 > 0', shows: 'same' },
];

const snapshotFor = (row: DerivedRow) =>
  row.kind === 'entity'
    ? org({ blueprints: [{ identifier: 'service', title: 'Service', schema: { properties: {} }, relations: {}, calculationProperties: { derived: { title: 'Derived', type: 'string', calculation: row.expression } } }] })
    : org({
        actions: [
          {
            identifier: 'deploy',
            title: 'Deploy',
            trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service', userInputs: { properties: { reason: { type: 'string', visible: { jqQuery: row.expression } } } } },
            invocationMethod: { type: 'WEBHOOK', url: 'https://example.com' },
          },
        ],
      });

const locationFor = (row: DerivedRow) => (row.kind === 'entity' ? 'calculationProperties.derived.calculation' : 'trigger.userInputs.properties.reason.visible.jqQuery');

judgeTable('derived values are known values: (site, expression, teams) → (class, verdict)', {
  jq,
  kind: (row) => row.kind,
  rows: ROWS,
  snapshot: snapshotFor,
  location: locationFor,
  verdict: (klass, row) => expectedVerdict(klass, row.kind === 'entity' ? 'shown' : 'gate'),
  check: ({ finding }) => expect(finding.reason).not.toContain('no context of the org can know'),
});

describe('derived values that read what no context holds', () => {

  it('a read of the entity\'s own property, compared with its teams, still needs a person', () => {
    const expression = '.properties.owner_team as $owner | .team | index($owner) != null';
    expect(expectedClass(jq, 'entity', expression)).toBe('same');
    const { finding } = judged(jq, snapshotFor({ name: '', kind: 'entity', expression }), 'calculationProperties.derived.calculation');
    expect(finding.verdict).toBe('review');
    expect(finding.reason).toContain('.properties.owner_team');
  });
});
