import { MAX_SEARCH_PAGE, type ApiClient, type SearchQuery } from '../api/client.js';
import { isObject, type JsonObject } from '../model/json.js';

/**
 * Which blueprints have entities holding `$team`, with up to `sampleSize` of them each, in as few
 * searches as possible (issue 17): one search across all blueprints (`POST /v1/entities/search`)
 * for entities with a team among the candidate blueprints, pages of 1000. A blueprint whose sample
 * is full drops out; when a page is mostly spent on such blueprints, the search starts again
 * without them, so a blueprint with a million owned entities costs one page, not a thousand.
 * Measured on the synthetic org (bench/fetch-bench.ts): 1x, 245 per-blueprint searches → a few.
 */
export interface OwnershipSamples {
  /** Blueprint id → sampled entities (empty when none holds a team). */
  samples: Map<string, JsonObject[]>;
  /** Blueprints the service named in `failedBlueprints`: not searched, so their samples say nothing. */
  failed: Set<string>;
  searches: number;
}

/** Ours: the `$blueprint in [...]` list per search, far below the 1 MiB request limit. */
const MAX_BLUEPRINTS_PER_SEARCH = 1_000;
/** Ours: a bound on what one search may read; reaching it is a gap (the client throws). */
const MAX_SCANNED_ENTITIES = 1_000_000;
/** Restart without the full samples when at least this share of a page was theirs. */
const RESTART_SHARE = 0.5;

const blueprintOf = (entity: JsonObject): string | undefined => (typeof entity.blueprint === 'string' ? entity.blueprint : undefined);

export async function sampleTeamOwnership(
  client: ApiClient,
  candidates: readonly string[],
  options: { sampleSize: number; include: string[] },
): Promise<OwnershipSamples> {
  const samples = new Map<string, JsonObject[]>(candidates.map((id) => [id, []]));
  const failed = new Set<string>();
  let searches = 0;
  for (let start = 0; start < candidates.length; start += MAX_BLUEPRINTS_PER_SEARCH) {
    const open = new Set(candidates.slice(start, start + MAX_BLUEPRINTS_PER_SEARCH));
    // Bounded: every restart closes at least one blueprint.
    for (let round = 0; open.size > 0 && round <= MAX_BLUEPRINTS_PER_SEARCH; round++) {
      const query: SearchQuery = {
        combinator: 'and',
        rules: [
          { property: '$team', operator: 'isNotEmpty' },
          { property: '$blueprint', operator: 'in', value: [...open] },
        ],
      };
      let restart = false;
      searches++;
      await client.searchEntities(undefined, query, {
        limit: MAX_SEARCH_PAGE,
        maxEntities: MAX_SCANNED_ENTITIES,
        include: [...options.include, '$blueprint'],
        onFailedBlueprints: (ids) => {
          for (const id of ids) {
            if (!samples.has(id)) continue;
            failed.add(id);
            open.delete(id);
            samples.delete(id);
          }
        },
        onPage: (entities) => {
          let spent = 0;
          for (const entity of entities.filter(isObject)) {
            const id = blueprintOf(entity);
            const sample = id === undefined || failed.has(id) ? undefined : samples.get(id);
            if (id === undefined || !sample || !open.has(id)) {
              spent++;
              continue;
            }
            sample.push(entity);
            if (sample.length >= options.sampleSize) open.delete(id);
          }
          restart = open.size > 0 && entities.length > 0 && spent / entities.length >= RESTART_SHARE;
          if (open.size === 0 || restart) return false;
          return undefined;
        },
      });
      if (!restart) break; // the pages ended: every open blueprint has all it holds
    }
  }
  return { samples, failed, searches };
}
