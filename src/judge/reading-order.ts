import { readsBeyondFixedPaths } from './team-reach.js';
import { extractReferences, propertyPaths } from '../jq/references.js';

/**
 * Calculations in the order they are filled on an entity: each after those it reads (by name, or
 * all others when it may read beyond fixed paths), in layers that read nothing of one another, so
 * a layer runs on one copy of the entity. Calculations reading each other in a ring keep the order given.
 */
export function readingOrder(properties: readonly (readonly [string, string])[]): (readonly [string, string])[][] {
  const names = new Set(properties.map(([name]) => name));
  const reads = properties.map(([name, calculation]) => (namedReads(calculation, names) ?? [...names]).filter((read) => read !== name));
  const placed = new Set<string>();
  const layers: (readonly [string, string])[][] = [];
  let left = properties.map((_, i) => i);
  while (left.length > 0) {
    const ready = left.filter((i) => reads[i]!.every((read) => placed.has(read)));
    const layer = ready.length > 0 ? ready : [left[0]!];
    layers.push(layer.map((i) => properties[i]!));
    for (const i of layer) placed.add(properties[i]![0]);
    left = left.filter((i) => !layer.includes(i));
  }
  return layers;
}


/** The names among `names` a jq text reads at `.properties.<name>`; undefined when it may read more than fixed paths show. */
export function namedReads(text: string, names: ReadonlySet<string>): string[] | undefined {
  const result = extractReferences(text);
  if (!result.ok || readsBeyondFixedPaths(result.tokens)) return undefined;
  return propertyPaths(result.references, names).flatMap(({ segments }) => segments.filter((segment, index) => segments[index - 1] === 'properties' && names.has(segment)));
}
