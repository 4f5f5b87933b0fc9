import { closeSync, openSync, writeSync } from 'node:fs';
import type { JsonObject } from '../src/model/json.js';
import { generateSyntheticOrg } from './synthetic-org.js';

const LIFECYCLES = ['production', 'staging', 'experimental', 'deprecated'];

/**
 * The 1x org with `count` entities spread over its blueprints that hold entities, written piece by
 * piece (a million entities as one string would be the bench's own peak, not the tool's). Each
 * entity is as a real catalog's: team values (titles, or identifiers where the blueprint's ownership
 * is Direct; every fifth has none, every third has two), four properties, and relations its blueprint defines: to
 * entities of two other blueprints (many and one) and, where the blueprint has one, to `_team`.
 */
export function writeEntityOrg(path: string, count: number): void {
  const org = generateSyntheticOrg({ blueprints: 300, actions: 600, pages: 200 });
  const holders = Object.keys(org.entities ?? {}).filter((id) => !id.startsWith('_'));
  const teams = (org.teams ?? []).map((team) => team.name);
  const teamId = (title: string) => title.toLowerCase().replace(/\s+/g, '_');
  const perHolder = Math.ceil(count / holders.length);
  const entityOf = (blueprint: string, e: number) => `${blueprint}-${e % perHolder}`;
  // Each holder relates to two others: the relations are defined on the blueprint, as the service requires.
  const blueprints = org.blueprints as JsonObject[];
  for (const [k, id] of holders.entries()) {
    const blueprint = blueprints.find((b) => b.identifier === id)!;
    const relations = (blueprint.relations ?? {}) as JsonObject;
    relations.depends_on = { target: holders[(k + 1) % holders.length]!, many: true, required: false, title: 'Depends on' };
    relations.system = { target: holders[(k + 7) % holders.length]!, many: false, required: false, title: 'System' };
    blueprint.relations = relations;
  }
  const { entities, ...rest } = org;
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, `${JSON.stringify(rest).slice(0, -1)},"entities":{"_team":${JSON.stringify(entities?._team ?? [])}`);
    let written = 0;
    for (const [k, blueprint] of holders.entries()) {
      const definition = blueprints.find((b) => b.identifier === blueprint)!;
      const direct = (definition.ownership as JsonObject | undefined)?.type === 'Direct';
      const teamRelation = 'owning_team' in (definition.relations as JsonObject);
      const dependsOn = holders[(k + 1) % holders.length]!;
      const system = holders[(k + 7) % holders.length]!;
      const chunk: string[] = [];
      for (let e = 0; e < perHolder && written < count; e++, written++) {
        const first = teams[written % teams.length]!;
        const second = teams[(written * 7 + 3) % teams.length]!;
        const titles = written % 5 === 4 ? [] : written % 3 === 0 ? [first, second] : [first];
        chunk.push(
          JSON.stringify({
            identifier: `${blueprint}-${e}`,
            title: `Entity ${e}`,
            team: direct ? titles.map(teamId) : titles,
            properties: {
              name: `service-${written}`,
              tier: written % 3 === 0 ? 'gold' : 'silver',
              url: `https://example.com/s/${written}`,
              lifecycle: LIFECYCLES[written % LIFECYCLES.length],
            },
            relations: {
              depends_on: [entityOf(dependsOn, e + 1), entityOf(dependsOn, e + 2)],
              system: entityOf(system, e),
              ...(teamRelation && { owning_team: [teamId(first)] }),
            },
          }),
        );
      }
      writeSync(fd, `,${JSON.stringify(blueprint)}:[${chunk.join(',')}]`);
    }
    writeSync(fd, '}}');
  } finally {
    closeSync(fd);
  }
}

// `node entity-org.js FILE COUNT`: the snapshot alone, to measure by hand.
if (process.argv[1]?.endsWith('entity-org.js') && process.argv[2]) writeEntityOrg(process.argv[2], Number(process.argv[3] ?? 1_000_000));
