/**
 * Issue 39, item 4: properties whose values are team values, for a blueprint's readers: its
 * mirrors of `$team` (catalog.teamMirrors), and its calculations that pass team values on, which
 * running them on one entity in both worlds shows (titles before the migration, the same teams'
 * identifiers after it), followed through calculations over those until none is added.
 */
import type { Catalog } from '../catalog/catalog.js';
import { teamPropertiesFor } from '../catalog/resources.js';
import { asString, isObject } from '../model/json.js';
import { sampleInput, sampleTeams } from './sample-context.js';

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
  const jq = catalog.jq;
  const teams = sampleTeams(catalog.teams);
  const identifierOf = new Map(teams.map((team) => [team.title, team.identifier]));
  // Run on the same entity in both worlds: it passes team values on when what it gives after the
  // migration is what it gave before with each title written as its team's identifier, and differs.
  const passesOn = (expression: string): boolean => {
    const [before, after] = (['title', 'identifier'] as const).map((form) => jq.evaluate(sampleInput('entity', 0, teams, form, [], [...teamValued]), expression));
    if (!before?.ok || !after?.ok) return false;
    const asIdentifiers = JSON.stringify(before.values, (_, value: unknown) => (typeof value === 'string' ? (identifierOf.get(value) ?? value) : value));
    return asIdentifiers === JSON.stringify(after.values) && asIdentifiers !== JSON.stringify(before.values);
  };
  for (let added = true; added; ) {
    added = false;
    for (const [name, expression] of calculations) {
      if (teamValued.has(name) || !passesOn(expression)) continue;
      teamValued.add(name);
      added = true;
    }
  }
  known.set(blueprint, teamValued);
  return teamValued;
}
