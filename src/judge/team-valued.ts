/**
 * Issue 39, item 4: properties whose values are team values, for a blueprint's readers: its
 * mirrors of `$team` (catalog.teamMirrors), and its calculations that pass team values on, which
 * running them in both worlds shows (`substituted` as a team value: titles before the migration,
 * the same teams' identifiers after it), followed through calculations over those until none is added.
 */
import type { Catalog } from '../catalog/catalog.js';
import { removedRelationsFor, teamPropertiesFor } from '../catalog/resources.js';
import { asString, isObject } from '../model/json.js';
import { assessTeamExpression } from './team-impact.js';

const found = new WeakMap<Catalog, Map<string, ReadonlySet<string>>>();

export function teamValuedProperties(catalog: Catalog, blueprint: string | undefined): ReadonlySet<string> {
  const mirrors = teamPropertiesFor(catalog, blueprint);
  const definition = blueprint === undefined ? undefined : catalog.blueprints.get(blueprint);
  if (blueprint === undefined || !catalog.jq || !isObject(definition?.calculationProperties)) return mirrors;
  let known = found.get(catalog);
  if (!known) found.set(catalog, (known = new Map()));
  const cached = known.get(blueprint);
  if (cached) return cached;
  const calculations = Object.entries(definition.calculationProperties).flatMap(([name, calculation]) => {
    const expression = isObject(calculation) ? asString(calculation.calculation) : undefined;
    return expression === undefined ? [] : [[name, expression] as const];
  });
  const teamValued = new Set(mirrors);
  for (let added = true; added; ) {
    added = false;
    for (const [name, expression] of calculations) {
      if (teamValued.has(name)) continue;
      const impact = assessTeamExpression(expression, { teams: catalog.teams, removedRelations: removedRelationsFor(catalog, blueprint), jq: catalog.jq, sample: 'entity', migrated: catalog.migrated, teamProperties: teamValued }, { sink: 'team-value' });
      if (impact?.class !== 'substituted') continue;
      teamValued.add(name);
      added = true;
    }
  }
  known.set(blueprint, teamValued);
  return teamValued;
}
