import { keyedRecord, type JsonObject, type JsonValue } from '../model/json.js';
import { appendPath, joinPath, type Path } from '../catalog/location.js';
import type { Entry, TreeNode } from './tree.js';

/** Where a value of a built resource was written: the tree node, and the `key = value` entry around it. */
export interface Origin {
  node: TreeNode;
  entry?: Entry;
}

/**
 * JSON that remembers, for every value, the file node it came from. File shapes (Terraform's
 * `self_service_trigger`, Python keywords) are reshaped into the service's shape on this tree,
 * so each value keeps its origin wherever it moves.
 */
export type LocatedJson =
  | { kind: 'scalar'; value: string | number | boolean | null; origin: Origin }
  | { kind: 'array'; items: LocatedJson[]; origin: Origin }
  | { kind: 'object'; fields: Map<string, LocatedJson>; origin: Origin };

export type LocatedObject = Extract<LocatedJson, { kind: 'object' }>;

export const located = {
  scalar: (value: string | number | boolean | null, origin: Origin): LocatedJson => ({ kind: 'scalar', value, origin }),
  object: (origin: Origin, fields: Iterable<[string, LocatedJson]> = []): LocatedObject => ({ kind: 'object', fields: new Map(fields), origin }),
};

export function field(object: LocatedJson | undefined, key: string): LocatedJson | undefined {
  return object?.kind === 'object' ? object.fields.get(key) : undefined;
}

/** The strings of an array (its other items left out); undefined for anything but an array. */
export const arrayStrings = (value: LocatedJson | undefined): string[] | undefined => (value?.kind === 'array' ? value.items.flatMap((item) => (item.kind === 'scalar' && typeof item.value === 'string' ? [item.value] : [])) : undefined);

export function stringField(object: LocatedJson | undefined, key: string): string | undefined {
  const value = field(object, key);
  return value?.kind === 'scalar' && typeof value.value === 'string' ? value.value : undefined;
}

export function take(object: LocatedObject, key: string): LocatedJson | undefined {
  const value = object.fields.get(key);
  object.fields.delete(key);
  return value;
}

/** A built resource: its JSON, and the line of every JSON path in it. */
export interface SourceMapped {
  json: JsonObject;
  /** `joinPath(...)` of each path → where it was written. */
  origins: Map<string, Origin>;
}

/**
 * Flatten to plain JSON, with each path's origin under `prefix` (`permissions` for permission maps).
 * The paths are written out only when one is first looked up (issue 33): most resources a scan
 * judges get no finding, and the blueprints of other files none at all.
 */
export function toSourceMapped(value: LocatedObject, prefix: Path = []): SourceMapped {
  const json = plain(value) as JsonObject;
  let origins: Map<string, Origin> | undefined;
  return {
    json,
    get origins() {
      return (origins ??= originsOf(value, joinPath(...prefix)));
    },
  };
}

function plain(node: LocatedJson): JsonValue {
  if (node.kind === 'scalar') return node.value;
  if (node.kind === 'array') return node.items.map(plain);
  const object: JsonObject = keyedRecord();
  for (const [key, child] of node.fields) object[key] = plain(child);
  return object;
}

/** Every path of `value` (joinPath's, each written from its parent's) → where it was written. */
function originsOf(value: LocatedJson, prefix: string): Map<string, Origin> {
  const origins = new Map<string, Origin>();
  const walk = (node: LocatedJson, path: string): void => {
    origins.set(path, node.origin);
    if (node.kind === 'array') node.items.forEach((item, index) => walk(item, appendPath(path, index)));
    else if (node.kind === 'object') for (const [key, child] of node.fields) walk(child, appendPath(path, key));
  };
  walk(value, prefix);
  return origins;
}

/** `a.b[0]["c.d"]` → ['a', 'b', 0, 'c.d']: the inverse of joinPath. */
export function splitPath(path: string): Path {
  const segments: (string | number)[] = [];
  const pattern = /\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]|\.?([^.[\]]+)/g;
  for (let match = pattern.exec(path); match; match = pattern.exec(path)) {
    if (match[1] !== undefined) segments.push(Number(match[1]));
    else if (match[2] !== undefined) segments.push(JSON.parse(match[2]) as string);
    else segments.push(match[3]!);
  }
  return segments;
}

/** The origin of `path`, or of its nearest ancestor that was written in the file. */
export function originOf(origins: ReadonlyMap<string, Origin>, path: string): { origin: Origin; exact: boolean } | undefined {
  const segments = [...splitPath(path)];
  for (let exact = true; ; exact = false) {
    const origin = origins.get(joinPath(...segments));
    if (origin) return { origin, exact };
    if (segments.length === 0) return undefined;
    segments.pop();
  }
}
