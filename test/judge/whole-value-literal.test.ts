/**
 * Issue 39, item 7: after the migration, what works today decides, on the org's own entities. An
 * expression that searches the whole value (`tostring | contains(...)`, every string of the entity)
 * for a team's title matches nothing now, the teams holding identifiers: `no-team-holds`. Unless
 * the org's entities hold that text elsewhere (a description, a tier): then it is no team
 * reference, and what jq gives on those entities before and after decides. Every expected answer
 * is computed here by running jq on the org's entities as they are today.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import type { Finding } from '../../src/model/finding.js';
import type { JsonObject } from '../../src/model/json.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';
import { useJqEngine } from '../support/jq-engine.js';
import { MIGRATED_ORGANIZATION } from './two-worlds.js';

const jq = useJqEngine();

const TEAMS = [
  { name: 'Core Banking', identifier: 'core-banking' },
  { name: 'Payments Risk', identifier: 'payments_risk' },
  { name: 'Gold', identifier: 'gold_squad' },
];

/** Services of a migrated org, each holding its team's identifier, a tier and a description. */
const services = (description: string): JsonObject[] =>
  TEAMS.map((team, i) => ({ identifier: `svc-${i}`, title: `Service ${i}`, team: [team.identifier], properties: { tier: i === 0 ? 'gold' : 'silver', description: i === 1 ? description : 'A service' }, relations: {} }));

function snapshot(entities: JsonObject[], parts: { condition?: string; calculation?: string }): OrgSnapshot {
  return {
    format: 'org-snapshot/1',
    organization: MIGRATED_ORGANIZATION,
    teams: TEAMS,
    users: [{ email: 'ana@example.com', teams: [{ name: 'Core Banking' }] }],
    blueprints: [
      // Another blueprint's mirror of its team's title: no field of a service.
      { identifier: 'repo', title: 'Repo', schema: { properties: {} }, relations: { owning_team: { title: 'Owning team', target: '_team', many: false, required: false } }, mirrorProperties: { owner_title: { title: 'Owner', path: 'owning_team.$title' } } },
      {
        identifier: 'service',
        title: 'Service',
        ownership: { type: 'Direct' },
        schema: { properties: { tier: { type: 'string' }, description: { type: 'string' } } },
        relations: {},
        ...(parts.calculation !== undefined && { calculationProperties: { flag: { title: 'Flag', type: 'boolean', calculation: parts.calculation } } }),
      },
    ],
    entities: { service: entities },
    actions: parts.condition === undefined ? [] : [
      {
        identifier: 'on_change',
        title: 'On change',
        trigger: { type: 'automation', event: { type: 'ENTITY_UPDATED', blueprintIdentifier: 'service' }, condition: { type: 'JQ', expressions: [parts.condition], combinator: 'and' } },
        invocationMethod: { type: 'WEBHOOK', url: 'https://hooks.example.com/x' },
      },
    ],
  } as unknown as OrgSnapshot;
}

function judgedAt(org: OrgSnapshot, location: string): Finding {
  const report = analyze(buildCatalog(org, { jq }));
  const finding = [...report.findings, ...(report.verified ?? [])].find((f) => f.location === location);
  expect(finding, `a finding or verified entry at ${location}`).toBeDefined();
  return finding!;
}

/** What jq gives on each entity of the org as it is today, as an update of it. */
const onEntities = (entities: readonly JsonObject[], condition: string) => entities.map((e) => JSON.stringify(jq.evaluate({ diff: { before: e, after: e } }, condition)));
const CONDITION = '.diff.after | tostring | contains("Core Banking")';
const AT = 'trigger.condition.expressions[0]';

describe('a whole-value text search for a team title, in a migrated org', () => {
  it('no entity of the org holds the title today: it matches nothing now, breaks', () => {
    const entities = services('A service');
    expect(onEntities(entities, CONDITION).every((answer) => answer.includes('false'))).toBe(true);
    const finding = judgedAt(snapshot(entities, { condition: CONDITION }), AT);
    expect(finding.verdict).toBe('breaks');
    expect(finding.reason).toContain('"Core Banking"');
  });

  it('an entity holds the text in its description today: no team reference, not a break', () => {
    const entities = services('Core Banking gateway');
    expect(onEntities(entities, CONDITION).some((answer) => answer.includes('true'))).toBe(true);
    expect(judgedAt(snapshot(entities, { condition: CONDITION }), AT).verdict).not.toBe('breaks');
  });
});

/** What jq gives on each entity of the org, its teams read back to titles (before) and as held today (after). */
function perEntity(entities: readonly JsonObject[], calculation: string): { before: string; after: string }[] {
  const titleOf = new Map(TEAMS.map((t) => [t.identifier, t.name]));
  return entities.map((e) => ({
    before: JSON.stringify(jq.evaluate({ ...e, team: (e.team as string[]).map((t) => titleOf.get(t)!) }, calculation)),
    after: JSON.stringify(jq.evaluate(e, calculation)),
  }));
}

describe('a whole-value text search for a team title, over services whose own blueprint mirrors a team title', () => {
  // The services relate to `_team` over `steward`, a team of another unit: its title mirror holds no service's own team.
  const withMirror = (org: OrgSnapshot): OrgSnapshot => {
    const [, service] = org.blueprints as JsonObject[];
    Object.assign(service!, { relations: { steward: { title: 'Steward', target: '_team', many: false, required: false } }, mirrorProperties: { steward_title: { title: 'Steward', path: 'steward.$title' } } });
    return org;
  };
  const stewarded = (): JsonObject[] => services('A service').map((e) => ({ ...e, relations: { steward: 'payments_risk' }, properties: { ...(e.properties as JsonObject), steward_title: 'Payments Risk' } }));

  it("the service of team Core Banking held the title before and holds none today: breaks", () => {
    const entities = stewarded();
    const titleOf = new Map(TEAMS.map((t) => [t.identifier, t.name]));
    const before = entities.map((e) => JSON.stringify(jq.evaluate({ diff: { after: { ...e, team: (e.team as string[]).map((t) => titleOf.get(t)!) } } }, CONDITION)));
    expect(before).not.toEqual(onEntities(entities, CONDITION));
    const finding = judgedAt(withMirror(snapshot(entities, { condition: CONDITION })), AT);
    expect(finding.verdict).toBe('breaks');
    // Named by the entity that changed, or as a title no team value holds today.
    expect(finding.reason).toMatch(/"svc-0"|"Core Banking" is a team's title, where the data holds identifiers/);
  });
});

describe("a whole-value text search for a team title, over services that mirror their own team's title", () => {
  // Each service relates to its own team over `owning_team`, and mirrors that team's title: a team value, not the service's own text.
  const withOwnMirror = (org: OrgSnapshot): OrgSnapshot => {
    const [, service] = org.blueprints as JsonObject[];
    Object.assign(service!, { relations: { owning_team: { title: 'Owning team', target: '_team', many: false, required: false } }, mirrorProperties: { owner_title: { title: 'Owner', path: 'owning_team.$title' } } });
    return org;
  };
  const owned = (): JsonObject[] => services('A service').map((e, i) => ({ ...e, relations: { owning_team: TEAMS[i]!.identifier }, properties: { ...(e.properties as JsonObject), owner_title: TEAMS[i]!.name } }));

  for (const condition of [CONDITION, '.diff.after | tojson | test("Core Banking")']) {
    it(`${condition}: the title is met only in the mirror of the team's title, so no text of the org's holds it: breaks`, () => {
      const entities = owned();
      // Left out of the team values (the team and the mirror of its title), no service holds the title.
      const textOnly = entities.map((e) => ({ ...e, team: [], properties: { ...(e.properties as JsonObject), owner_title: null } }));
      expect(onEntities(textOnly, condition).every((answer) => answer.includes('false'))).toBe(true);
      const finding = judgedAt(withOwnMirror(snapshot(entities, { condition })), AT);
      expect(finding.verdict).toBe('breaks');
      expect(finding.reason).toContain('"Core Banking" is a team\'s title, where the data holds identifiers');
    });
  }
});

describe("a calculation searching its entity's text for a team title, over services that mirror their own team's title", () => {
  // The calculation's input is the entity as stored: where each service's mirror follows its own team, the
  // title stays in the service of that team in both worlds, so the org's entities give the same before and after.
  const CALCULATION = 'tostring | contains("Core Banking")';
  const AT_CALCULATION = 'calculationProperties.flag.calculation';
  const mirrored = (org: OrgSnapshot): OrgSnapshot => {
    const [, service] = org.blueprints as JsonObject[];
    Object.assign(service!, { relations: { owning_team: { title: 'Owning team', target: '_team', many: false, required: false } }, mirrorProperties: { owner_title: { title: 'Owner', path: 'owning_team.$title' } } });
    return org;
  };
  const owning = (team: (i: number) => string): JsonObject[] =>
    services('A service').map((e, i) => ({ ...e, relations: { owning_team: team(i) }, properties: { ...(e.properties as JsonObject), owner_title: TEAMS.find((t) => t.identifier === team(i))!.name } }));

  it('the service of team Core Banking mirrors that title: the same on every entity, unaffected, said of the org\'s entities', () => {
    const entities = owning((i) => TEAMS[i]!.identifier);
    expect(perEntity(entities, CALCULATION).every((r) => r.before === r.after)).toBe(true);
    const finding = judgedAt(mirrored(snapshot(entities, { calculation: CALCULATION })), AT_CALCULATION);
    expect(finding.verdict).toBe('unaffected');
    expect(finding.reason).toContain("the org's own entities");
  });

  it('the mirror of the service of team Core Banking follows another team: it stops matching, breaks', () => {
    const entities = owning(() => 'payments_risk');
    expect(perEntity(entities, CALCULATION).some((r) => r.before !== r.after)).toBe(true);
    expect(judgedAt(mirrored(snapshot(entities, { calculation: CALCULATION })), AT_CALCULATION).verdict).toBe('breaks');
  });
});

describe("a whole-value walk for a literal the org's entities hold outside their teams, in a migrated org", () => {
  const CALCULATION = '[paths(type == "string") as $p | getpath($p)] | index("gold") != null';
  it('a tier value: the same on every entity of the org before and after, so no break', () => {
    const entities = services('A service');
    expect(perEntity(entities, CALCULATION).every((r) => r.before === r.after)).toBe(true);
    expect(judgedAt(snapshot(entities, { calculation: CALCULATION }), 'calculationProperties.flag.calculation').verdict).toBe('unaffected');
  });

  it('a value no entity holds and no team meets still breaks', () => {
    const calculation = '[paths(type == "string") as $p | getpath($p)] | index("platinum") != null';
    const finding = judgedAt(snapshot(services('A service'), { calculation }), 'calculationProperties.flag.calculation');
    expect(finding.verdict).toBe('breaks');
    expect(finding.reason).toContain('"platinum" is no team of the org today');
  });
});

describe('a whole-value text search for a value no team holds, in a migrated org', () => {
  it('a near miss of a team identifier, searched in the text of the whole entity: it matches nothing now, breaks', () => {
    const condition = '.diff.after | tostring | contains("core_banking")';
    const entities = services('A service');
    expect(onEntities(entities, condition).every((answer) => answer.includes('false'))).toBe(true);
    const finding = judgedAt(snapshot(entities, { condition }), AT);
    expect(finding.verdict).toBe('breaks');
    expect(finding.reason).toContain('"core_banking" is no team of the org today');
  });
});
