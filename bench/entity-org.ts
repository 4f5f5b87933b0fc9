import { closeSync, openSync, writeSync } from 'node:fs';
import { generateSyntheticOrg } from './synthetic-org.js';

/**
 * The 1x org with `count` entities spread over its blueprints that hold entities, written piece by
 * piece (a million entities as one string would be the bench's own peak, not the tool's).
 */
export function writeEntityOrg(path: string, count: number): void {
  const org = generateSyntheticOrg({ blueprints: 300, actions: 600, pages: 200 });
  const holders = Object.keys(org.entities ?? {}).filter((id) => !id.startsWith('_'));
  const teams = (org.teams ?? []).map((team) => team.name);
  const { entities, ...rest } = org;
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, `${JSON.stringify(rest).slice(0, -1)},"entities":{"_team":${JSON.stringify(entities?._team ?? [])}`);
    const perHolder = Math.ceil(count / holders.length);
    let written = 0;
    for (const blueprint of holders) {
      const chunk: string[] = [];
      for (let e = 0; e < perHolder && written < count; e++, written++) {
        chunk.push(
          JSON.stringify({
            identifier: `${blueprint}-${e}`,
            title: `Entity ${e} of ${blueprint}`,
            team: [teams[written % teams.length]!],
            properties: { name: `service-${written}`, tier: written % 3 === 0 ? 'gold' : 'silver', url: `https://example.com/s/${written}` },
            relations: {},
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
