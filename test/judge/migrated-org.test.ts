/**
 * Issue 29: an org recorded after the migration, as the service gives it then: the users API lists
 * team NAMES, the `_user` entities hold the identifiers, the organization carries the
 * USERS_AND_TEAMS_OWNERSHIP_V2 flag, entities and permissions hold identifiers. Every reference
 * below behaves the same as before the migration (each row says why, and the test runs it in both
 * worlds to check): no access change and no finding.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import type { JsonObject } from '../../src/model/json.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';
import { useJqEngine } from '../support/jq-engine.js';
import { expectedClass, TEAMS, USERS } from './two-worlds.js';

const jq = useJqEngine();

const identifierOf = new Map(TEAMS.map((t) => [t.name, t.identifier]));

/** Conditions that gate, each the same before and after the migration (checked below by running them). */
const SAME_GATES = [
  // Names are titles in both worlds: the documented example, against a title.
  '[.user.teams[].name] | index("QA") != null',
  // Only how many teams.
  '.user.team | length > 0',
  // A title and its own identifier both listed: either world matches.
  '.user.team | any(. == "Data Science" or . == "data_science")',
  // Names by map(.name) and by any(): titles in both worlds.
  '.user.teams | map(.name) | any(. == "QA")',
  'any(.user.teams[]; .name == "Alpha")',
];

/** Conditions written for identifiers: they give now what the same condition with titles gave before. */
const WRITTEN_FOR_IDENTIFIERS = ['.user.team | index("data_science") != null', '.user.teamsIdentifiers | contains(["qa"])', 'any(.user.team[]; IN("a_beta", "platform"))'];

function migratedOrg(): OrgSnapshot {
  const input = (visible: string): JsonObject => ({ type: 'string', visible: { jqQuery: visible } });
  const inputs: Record<string, JsonObject> = {};
  [...SAME_GATES, ...WRITTEN_FOR_IDENTIFIERS].forEach((condition, i) => (inputs[`field_${i}`] = input(condition)));
  inputs.target = {
    type: 'string',
    format: 'entity',
    blueprint: 'service',
    // The service's own example: $team and .user.team turn into identifiers together.
    dataset: { combinator: 'and', rules: [{ property: '$team', operator: 'containsAny', value: { jqQuery: '.user.team' } }] },
  };
  inputs.owner = { type: 'string', format: 'team', default: { jqQuery: '.user.team[0]' } };
  // A list of _team entities, by default the user's teams.
  inputs.owners = { type: 'array', items: { type: 'string', format: 'entity', blueprint: '_team' }, default: { jqQuery: '.user.team' } };
  return {
    format: 'org-snapshot/1',
    organization: { id: 'org_migrated', name: 'Migrated org', featureFlags: ['USERS_AND_TEAMS_OWNERSHIP_V2'] },
    blueprints: [
      {
        identifier: 'service',
        title: 'Service',
        schema: { properties: {} },
        relations: {},
        ownership: { type: 'Direct' },
        // A lookup keyed by identifiers: what $team holds once migrated.
        calculationProperties: { region: { title: 'Region', type: 'string', calculation: '{"qa": "us", "data_science": "eu"} as $r | [.team[] | $r[.] // "none"] | first // "none"' } },
      },
      { identifier: '_team', title: 'Team', schema: { properties: {} }, relations: {} },
      { identifier: '_user', title: 'User', schema: { properties: {} }, relations: {} },
    ],
    teams: TEAMS.map((t) => ({ name: t.name })),
    users: USERS,
    entities: {
      service: TEAMS.map((t, i) => ({ identifier: `svc-${i}`, team: [t.identifier] })),
      _team: TEAMS.map((t) => ({ identifier: t.identifier, title: t.name })),
      _user: USERS.map((u) => ({ identifier: u.email, team: u.teams.map((t) => identifierOf.get(t.name)!) })),
    },
    scorecards: [],
    actions: [
      {
        identifier: 'deploy',
        title: 'Deploy',
        trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service', userInputs: { properties: inputs } },
        invocationMethod: { type: 'UPSERT_ENTITY', blueprintIdentifier: 'service', mapping: { identifier: '{{ .entity.identifier }}', team: '{{ .trigger.by.user.team }}' } },
      },
    ],
    actionPermissions: {
      deploy: {
        execute: {
          roles: [],
          users: [],
          teams: [],
          policy: {
            // The runner's teams through a template: $team and .user.team hold identifiers together.
            queries: { mine: { combinator: 'and', rules: [{ property: '$team', operator: 'in', value: '{{ .user.team }}' }] } },
            conditions: [SAME_GATES[0]!, '.results.mine.entities | length >= 0'],
          },
        },
        // Rewritten by the migration: identifiers.
        approve: { roles: [], users: [], teams: ['platform', 'qa'] },
      },
    },
    pages: [
      {
        identifier: 'services',
        title: 'Services',
        type: 'dashboard',
        widgets: [
          {
            id: 'mine',
            type: 'table-entities-explorer',
            blueprintConfig: {
              service: {
                filterSettings: {
                  filterBy: {
                    combinator: 'and',
                    rules: [
                      // The viewer's own teams, whatever $team holds.
                      { property: '$team', operator: 'in', value: ['My Teams'] },
                      // An identifier, in an org whose $team holds identifiers.
                      { property: '$team', operator: 'containsAny', value: ['a_beta'] },
                    ],
                  },
                },
              },
            },
          },
          // "My Teams" in a dashboard chart rather than a table filter.
          { id: 'count', type: 'entities-number-chart', blueprint: 'service', dataset: { combinator: 'and', rules: [{ property: '$team', operator: 'containsAny', value: ['My Teams'] }] } },
        ],
      },
    ],
    pagePermissions: { services: { read: { roles: [], users: [], teams: ['qa'] } } },
  } as OrgSnapshot;
}

describe('an org recorded after the migration', () => {
  it('the gates used here behave as the rows say, run in both worlds', () => {
    for (const condition of SAME_GATES) expect(expectedClass(jq, 'user-input', condition), condition).toBe('same');
    for (const condition of WRITTEN_FOR_IDENTIFIERS) expect(expectedClass(jq, 'user-input', condition), condition).toBe('changed');
  });

  it('gives no access change: the legacy title → identifier flips are never replayed', () => {
    const report = analyze(buildCatalog(migratedOrg(), { jq }));
    expect(report.access).toEqual([]);
  });

  it('gives no finding on a reference that behaves the same', () => {
    const report = analyze(buildCatalog(migratedOrg(), { jq }));
    expect(report.findings.map((f) => `${f.location}: ${f.verdict} ${f.reason}`)).toEqual([]);
    // Each reference was judged and is listed as checked.
    expect(report.verified?.length).toBeGreaterThan(0);
  });

  it('reads the people as the service lists them: names from the users API, identifiers from _user entities', () => {
    const catalog = buildCatalog(migratedOrg(), { jq });
    const cy = catalog.people.find((p) => p.email === 'cy@example.com')!;
    expect(cy).toMatchObject({ names: ['Platform (EU)', 'Alpha'], identifiers: ['platform', 'z_alpha'], identifiersFrom: '_user entity' });
  });
});
