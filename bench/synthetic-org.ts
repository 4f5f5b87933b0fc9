import type { UserRecord } from '../src/model/access.js';
import type { JsonObject } from '../src/model/json.js';
import { SNAPSHOT_FORMAT, type EntityRecord, type OrgSnapshot, type TeamRecord } from '../src/model/snapshot.js';
import { seededRandom } from '../test/helpers/seeded-random.js';

export interface SyntheticOrgSize {
  blueprints: number;
  actions: number;
  pages: number;
  /** 40 by default. */
  teams?: number;
  /** Seed of the deterministic generator: same size and seed, same org. */
  seed?: number;
  /**
   * Every jq expression distinct (a no-op binding with a running number), as in a real org where
   * expressions rarely repeat; by default the org reuses a handful, which the jq caches hide.
   */
  distinctExpressions?: boolean;
}


const pad = (n: number, width: number) => String(n).padStart(width, '0');

/**
 * An org-snapshot/1 of the given size with the team references a real pre-migration org has:
 * `$team` titles on entities, teamInheritance chains, relations to `_team` (with and without
 * inheritance over them), team titles in blueprint, action and page permissions, `$team` in
 * policy rules, jq reading `.user.team` / `.relations.teams`, widget filters and mappings.
 * Every blueprint has permissions; so does every self-service action and every catalog page. A
 * third of the pages are entity pages and 30 % of the actions automations, which have none (the
 * fetcher does not read them: src/sources/permission-plan.ts).
 */
export function generateSyntheticOrg(size: SyntheticOrgSize): OrgSnapshot {
  const next = seededRandom(size.seed ?? 20_250_114);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  let expressions = 0;
  /** A jq expression, made unique in distinct-expression mode without changing what it reads. */
  const jq = (expression: string) => (size.distinctExpressions ? `${expression} | . as $_${expressions++} | .` : expression);
  const teamCount = size.teams ?? 40;
  const teams: TeamRecord[] = Array.from({ length: teamCount }, (_, i) => ({ name: `Team ${pad(i, 3)}`, description: `Synthetic team ${i}` }));
  const teamId = (title: string) => title.toLowerCase().replace(/\s+/g, '_');
  const someTeams = (max: number) => [...new Set(Array.from({ length: 1 + Math.floor(next() * max) }, () => pick(teams).name))];

  const blueprints: JsonObject[] = [{ identifier: '_team', title: 'Team', schema: { properties: {} }, relations: {} }];
  const blueprintPermissions: Record<string, JsonObject> = {};
  const entities: Record<string, EntityRecord[]> = {
    _team: teams.map((team) => ({ identifier: teamId(team.name), title: team.name })),
  };
  const permissionLeaf = () => ({ roles: ['Admin'], users: [], teams: next() < 0.5 ? someTeams(2) : [], ownedByTeam: next() < 0.3 });

  for (let i = 1; i < size.blueprints; i++) {
    const id = `bp_${pad(i, 5)}`;
    const blueprint: JsonObject = { identifier: id, title: `Blueprint ${i}`, schema: { properties: { name: { type: 'string' } } }, relations: {} };
    const relations = blueprint.relations as JsonObject;
    const roll = next();
    const parent = i > 1 ? `bp_${pad(1 + Math.floor(next() * (i - 1)), 5)}` : undefined;
    if (roll < 0.2 && parent) {
      relations.parent = { target: parent, many: false, required: false, title: 'Parent' };
      blueprint.teamInheritance = { path: 'parent' };
    } else if (roll < 0.25) {
      relations.owning_team = { target: '_team', many: true, required: false };
      entities[id] = Array.from({ length: 3 }, (_, e) => ({ identifier: `${id}-e${e}`, title: `Entity ${e}`, relations: { owning_team: [teamId(pick(teams).name)] } }));
    } else if (roll < 0.27) {
      relations.teams = { target: '_team', many: true, required: false };
      blueprint.teamInheritance = { path: 'teams' };
    } else if (roll < 0.32) {
      blueprint.ownership = { type: 'Direct' };
      entities[id] = [{ identifier: `${id}-e0`, team: [teamId(pick(teams).name)] }];
    } else if (roll < 0.8) {
      entities[id] = Array.from({ length: 2 + Math.floor(next() * 6) }, (_, e) => ({
        identifier: `${id}-e${e}`,
        title: `Entity ${e}`,
        team: e % 3 === 2 ? [] : someTeams(2),
      }));
    } else {
      entities[id] = [];
    }
    if (next() < 0.1) {
      blueprint.calculationProperties = {
        owners: { title: 'Owners', calculation: jq(next() < 0.5 ? '.team' : '.relations.teams | length'), type: next() < 0.5 ? 'array' : 'number' },
      };
    }
    blueprints.push(blueprint);
    blueprintPermissions[id] = { entities: { register: permissionLeaf(), update: permissionLeaf(), unregister: permissionLeaf() } };
  }
  blueprintPermissions._team = { entities: { register: { roles: ['Admin'], users: [], teams: [] } } };
  const blueprintIds = blueprints.map((b) => b.identifier as string).filter((id) => id !== '_team');

  const actions: JsonObject[] = [];
  const actionPermissions: Record<string, JsonObject> = {};
  for (let i = 0; i < size.actions; i++) {
    const id = `action_${pad(i, 5)}`;
    const blueprint = pick(blueprintIds);
    const automation = next() < 0.3;
    const team = pick(teams).name;
    actions.push(
      automation
        ? {
            identifier: id,
            title: `Automation ${i}`,
            trigger: { type: 'automation', event: { type: 'ENTITY_UPDATED', blueprintIdentifier: blueprint }, condition: { type: 'JQ', expressions: [jq(next() < 0.3 ? `.diff.after.team | index("${team}")` : '.diff.after != null')], combinator: 'and' } },
            invocationMethod: { type: 'WEBHOOK', url: 'https://hooks.example.com/run', body: { owner: next() < 0.4 ? '{{ .event.diff.after.team }}' : '{{ .event.diff.after.identifier }}' } },
          }
        : {
            identifier: id,
            title: `Action ${i}`,
            description: 'Creates or updates an entity for the team.',
            trigger: {
              type: 'self-service',
              operation: 'CREATE',
              blueprintIdentifier: blueprint,
              userInputs: { properties: { name: { type: 'string' }, ...(next() < 0.2 ? { owner: { type: 'string', format: 'entity', blueprint: '_team', visible: { jqQuery: jq(`.user.team | contains(["${team}"])`) } } } : {}) }, required: ['name'], order: ['name'] },
            },
            invocationMethod: { type: 'UPSERT_ENTITY', blueprintIdentifier: blueprint, mapping: { identifier: jq('.inputs.name'), ...(next() < 0.3 ? { team: jq('.relations.teams') } : {}) } },
          },
    );
    const execute: JsonObject = { roles: ['Member'], users: [], teams: next() < 0.4 ? someTeams(2) : [] };
    if (next() < 0.1) execute.policy = { queries: { mine: { combinator: 'and', rules: [{ property: '$team', operator: '=', value: team }] } }, conditions: [jq('.results.mine | length > 0')] };
    if (!automation) actionPermissions[id] = { execute, approve: { roles: [], users: [], teams: [] } };
  }

  const pages: JsonObject[] = [];
  const pagePermissions: Record<string, JsonObject> = {};
  for (let i = 0; i < size.pages; i++) {
    const id = `page_${pad(i, 5)}`;
    const blueprint = pick(blueprintIds);
    const widget: JsonObject = { id: `w${i}`, type: 'table-entities-explorer', title: 'Entities', blueprint };
    if (next() < 0.1) widget.excludedFields = ['teams'];
    if (next() < 0.1) {
      widget.blueprintConfig = { [blueprint]: { filterSettings: { filterBy: { combinator: 'and', rules: [{ property: '$team', operator: 'containsAny', value: [pick(teams).name] }] } } } };
    }
    const entityPage = next() < 0.3;
    pages.push({ identifier: id, title: `Page ${i}`, type: entityPage ? 'entity' : 'blueprint-entities', blueprint, widgets: [widget] });
    const read = { roles: ['Member'], users: [], teams: next() < 0.3 ? someTeams(2) : [] };
    if (!entityPage) pagePermissions[id] = { read };
  }

  const integrations: JsonObject[] = Array.from({ length: 10 }, (_, i) => ({
    installationId: `integration-${i}`,
    integrationType: i % 3 === 0 ? 'github' : 'pagerduty',
    ...(i % 5 === 4
      ? {}
      : { config: { resources: [{ kind: 'service', selector: { query: 'true' }, port: { entity: { mappings: { identifier: jq('.id'), title: jq('.name'), blueprint: `"${pick(blueprintIds)}"`, team: jq('.team.name'), properties: {} } } } }] } }),
  }));
  const webhooks: JsonObject[] = Array.from({ length: 10 }, (_, i) => ({
    identifier: `webhook_${i}`,
    title: `Webhook ${i}`,
    mappings: [{ blueprint: pick(blueprintIds), filter: 'true', entity: { identifier: jq('.body.id'), title: jq('.body.name'), team: jq('.body.owner.team'), properties: {} } }],
  }));

  return {
    format: SNAPSHOT_FORMAT,
    // An org that has not migrated yet, as its flags say (its mixed shapes alone would read as migrated).
    organization: { id: `org_synthetic_${size.blueprints}_${size.actions}_${size.pages}`, name: 'Synthetic Org', featureFlags: [] },
    blueprints,
    blueprintPermissions,
    actions,
    actionPermissions,
    pages,
    pagePermissions,
    integrations,
    webhooks,
    teams,
    entities,
  };
}

/**
 * Deterministic users, one in 50 an admin: most in one team, some in two or three (65/30/5 %),
 * big teams more likely than small ones. Users with the same teams share one jq context, so this
 * spread (about a thousand distinct team lists of 2,000 users) is what the time depends on.
 */
export function syntheticUsers(org: OrgSnapshot, count: number): UserRecord[] {
  const titles = (org.teams ?? []).map((team) => team.name);
  let state = 7;
  const next = () => (state = (state * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const team = () => titles[Math.floor(next() ** 2 * titles.length)]!;
  return Array.from({ length: count }, (_, i) => {
    const roll = next();
    const size = roll < 0.65 ? 1 : roll < 0.95 ? 2 : 3;
    return {
      email: `user${String(i).padStart(5, '0')}@example.com`,
      teams: [...new Set(Array.from({ length: size }, team))].map((name) => ({ name })),
      roles: [{ name: i % 50 === 0 ? 'Admin' : 'Member' }],
    };
  });
}

/**
 * Every action gated by a condition of its own over the user's teams (and email, when asked): the
 * texts are all different (each action's team triple, or team and e-mail ending, is its own), as in
 * an org whose conditions were written one by one; `distinctTexts` counts them.
 */
export function withDistinctConditions(org: OrgSnapshot, readsEmail: boolean): OrgSnapshot {
  const titles = (org.teams ?? []).map((team) => team.name);
  const n = titles.length;
  const actionPermissions = Object.fromEntries(
    Object.entries(org.actionPermissions ?? {}).map(([id, permissions], i) => {
      // i ↦ (a, b, c) is one to one below n³ actions: a and b run through every pair, c moves on each round.
      const a = titles[i % n]!;
      const b = titles[Math.floor(i / n) % n]!;
      const c = titles[(Math.floor(i / (n * n)) + i) % n]!;
      const condition = readsEmail
        ? `(.user.team | index("${a}") != null) or (.user.email | endswith("${String(i % 997).padStart(3, '0')}@example.com"))`
        : `.user.team | (index("${a}") != null) or (index("${b}") != null and index("${c}") == null)`;
      return [id, { ...permissions, execute: { roles: [], users: [], teams: [], policy: { queries: {}, conditions: [condition] } } }];
    }),
  );
  return { ...org, actionPermissions };
}

/** How many different condition texts an org's action permissions hold. */
export function distinctTexts(org: OrgSnapshot): number {
  const texts = new Set<string>();
  for (const permissions of Object.values(org.actionPermissions ?? {})) {
    const conditions = (permissions?.execute as { policy?: { conditions?: unknown[] } } | undefined)?.policy?.conditions ?? [];
    for (const condition of conditions) texts.add(JSON.stringify(condition));
  }
  return texts.size;
}
