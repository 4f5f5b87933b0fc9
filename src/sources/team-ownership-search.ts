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
  /**
   * Every entity of the `whole` blueprints (the team directory), read by the first search beside
   * the samples: one request fewer per run. Absent when that search did not read them all (it
   * stopped before its pages ended, the service named one in `failedBlueprints`, or there were
   * more than the bound): the caller then reads them on their own, as it would without this.
   */
  whole?: Map<string, JsonObject[]>;
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
  options: { sampleSize: number; include: string[]; whole?: readonly string[]; maxWholeEntities?: number },
): Promise<OwnershipSamples> {
  const samples = new Map<string, JsonObject[]>(candidates.map((id) => [id, []]));
  const failed = new Set<string>();
  let searches = 0;
  // Asked only in the first search: a restart or a later chunk would read them again.
  const wholeIds = new Set(options.whole ?? []);
  const whole = new Map<string, JsonObject[]>([...wholeIds].map((id) => [id, []]));
  let wholeRead = 0;
  let wholeComplete = wholeIds.size > 0;
  for (let start = 0; start < candidates.length; start += MAX_BLUEPRINTS_PER_SEARCH) {
    const open = new Set(candidates.slice(start, start + MAX_BLUEPRINTS_PER_SEARCH));
    // Bounded: every restart closes at least one blueprint.
    for (let round = 0; open.size > 0 && round <= MAX_BLUEPRINTS_PER_SEARCH; round++) {
      const withWhole = searches === 0 && wholeComplete;
      const owned: SearchQuery = {
        combinator: 'and',
        rules: [
          { property: '$team', operator: 'isNotEmpty' },
          { property: '$blueprint', operator: 'in', value: [...open] },
        ],
      };
      // A rule may itself be a query (the search API's schema, with a nested `or` as its example).
      const query: SearchQuery = withWhole ? { combinator: 'or', rules: [owned as unknown as JsonObject, { property: '$blueprint', operator: 'in', value: [...wholeIds] }] } : owned;
      let restart = false;
      let stopped = false;
      searches++;
      await client.searchEntities(undefined, query, {
        limit: MAX_SEARCH_PAGE,
        maxEntities: MAX_SCANNED_ENTITIES,
        include: [...options.include, '$blueprint'],
        // A restart or the next chunk continues the sampling: it goes ahead of reads not yet started.
        underWay: searches > 1,
        onFailedBlueprints: (ids) => {
          for (const id of ids) {
            if (wholeIds.has(id)) wholeComplete = false;
            if (!samples.has(id)) continue;
            failed.add(id);
            open.delete(id);
            samples.delete(id);
          }
        },
        onPage: (entities, page) => {
          let spent = 0;
          let wholeOnPage = 0;
          for (const entity of entities.filter(isObject)) {
            const id = blueprintOf(entity);
            const all = withWhole && id !== undefined ? whole.get(id) : undefined;
            if (all) {
              wholeOnPage++;
              if (++wholeRead > (options.maxWholeEntities ?? Number.POSITIVE_INFINITY)) wholeComplete = false;
              else all.push(entity);
              continue;
            }
            const sample = id === undefined || failed.has(id) ? undefined : samples.get(id);
            if (id === undefined || !sample || !open.has(id)) {
              spent++;
              continue;
            }
            sample.push(entity);
            if (sample.length >= options.sampleSize) open.delete(id);
          }
          const sampled = entities.length - wholeOnPage;
          restart = open.size > 0 && sampled > 0 && spent / sampled >= RESTART_SHARE;
          // Stopped before the pages ended: whatever the last page held, later ones are unread.
          stopped = (open.size === 0 || restart) && page.more;
          return open.size === 0 || restart ? false : undefined;
        },
      });
      // The whole blueprints are whole only when the first search read its pages to the end.
      if (withWhole && stopped) wholeComplete = false;
      if (!restart) break; // the pages ended: every open blueprint has all it holds
    }
  }
  return wholeComplete && searches > 0 ? { samples, failed, searches, whole } : { samples, failed, searches };
}
