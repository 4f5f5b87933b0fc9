/** Plain JSON values as read from a snapshot or the API. */
export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue | undefined;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/*
 * Keys the service or a file chose are data: `constructor`, `toString`, `valueOf`,
 * `hasOwnProperty` and `__proto__` are valid identifiers of a blueprint, a property, an action
 * or a team (issue 32). An ordinary object answers a lookup of a missing one with a member of
 * Object.prototype, and an assignment to `__proto__` replaces its prototype instead of adding a
 * key. Objects keyed by such names therefore have no prototype.
 */

/** An empty object for keys the service or a file chose: nothing is found in it but what was put there. */
export function keyedRecord<T = JsonValue>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** `entries` as a keyed record (as Object.fromEntries, without a prototype). */
export function keyedFromEntries<T>(entries: Iterable<readonly [string, T]>): Record<string, T> {
  const record = keyedRecord<T>();
  for (const [key, value] of entries) record[key] = value;
  return record;
}

/** Values known to hold no object with a prototype: dropPrototypes does not walk them again. */
const PROTOTYPE_FREE = new WeakSet<object>();

/**
 * Every object in a tree (as JSON.parse makes: no object reached twice) made prototype-free, in
 * place, and the tree remembered as such, so dropPrototypes skips it: the pass that reads the
 * snapshot's entities for another reason does this on the way (issue 41: dropPrototypes remembered
 * each of a million entities' objects in a Set, a second walk of its own). Bounded: past
 * MAX_TREE_DEPTH (or an object met again, which a tree has not) it stops, and the tree is left to
 * dropPrototypes. Returns whether it went through the whole tree.
 */
export function dropTreePrototypes(tree: unknown): boolean {
  if (typeof tree === 'object' && tree !== null && PROTOTYPE_FREE.has(tree)) return true;
  const whole = dropPartPrototypes(tree, 0);
  if (whole && typeof tree === 'object' && tree !== null) PROTOTYPE_FREE.add(tree);
  return whole;
}

/**
 * dropTreePrototypes of one part of a tree, at `depth` in it, not remembered: a reader that builds
 * the tree part by part drops each part's prototypes while it is fresh, and marks the tree
 * (markPrototypeFree) once every part was done whole.
 */
export function dropPartPrototypes(value: unknown, depth: number): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (depth === MAX_TREE_DEPTH) return false;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) if (!dropPartPrototypes(value[index], depth + 1)) return false;
    return true;
  }
  if (Object.isExtensible(value) && Object.getPrototypeOf(value) !== null) Object.setPrototypeOf(value, null);
  for (const key of Object.keys(value)) if (!dropPartPrototypes((value as Record<string, unknown>)[key], depth + 1)) return false;
  return true;
}

/** Ours: far below where the call stack ends, far above any org's nesting (100, sources/nesting.ts). */
const MAX_TREE_DEPTH = 500;

/** A value built only of keyedRecord objects and arrays (a redacted copy): dropPrototypes need not walk it. */
export function markPrototypeFree(value: unknown): void {
  if (typeof value === 'object' && value !== null) PROTOTYPE_FREE.add(value);
}

/**
 * Every object in `value` made prototype-free, in place (arrays keep theirs: they are indexed by
 * number). Iterative: input nesting is bounded elsewhere, but not by the call stack. A frozen
 * object keeps its prototype (nothing in src freezes; tests freeze a snapshot to prove the rules
 * leave it alone). In place, not copied: a copy of a large org costs several times as long.
 */
export function dropPrototypes<T>(value: T): T {
  const stack: unknown[] = [value];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item !== 'object' || item === null || seen.has(item) || PROTOTYPE_FREE.has(item)) continue;
    seen.add(item);
    if (Array.isArray(item)) {
      for (const child of item) stack.push(child);
      continue;
    }
    if (Object.isExtensible(item) && Object.getPrototypeOf(item) !== null) Object.setPrototypeOf(item, null);
    for (const key of Object.keys(item)) stack.push((item as Record<string, unknown>)[key]);
  }
  return value;
}

/** A deep copy of JSON data whose objects have no prototype (where structuredClone would give them Object's). */
export function copyJson<T>(value: T): T {
  // Copied directly where that gives what structuredClone would (plain data): several times faster for the fix kit's bodies.
  const copy = prototypeFreeCopy(value, new Map(), 0);
  return copy === NOT_PLAIN ? dropPrototypes(structuredClone(value)) : (copy as T);
}

/**
 * copyJson's result for plain data: objects (of Object's prototype or none) and arrays without
 * holes or other keys, holding what JSON holds, undefined and any number. An object met twice is
 * copied once, as structuredClone keeps it. NOT_PLAIN for anything else.
 */
function prototypeFreeCopy(value: unknown, copies: Map<object, unknown>, depth: number): unknown {
  if (typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') return NOT_PLAIN;
  if (typeof value !== 'object' || value === null) return value;
  const known = copies.get(value);
  if (known !== undefined) return known;
  if (depth === MAX_DIRECT_DEPTH) return NOT_PLAIN;
  const prototype = Object.getPrototypeOf(value);
  if (Array.isArray(value)) {
    if (prototype !== Array.prototype || Object.keys(value).length !== value.length) return NOT_PLAIN;
    const copy: unknown[] = new Array(value.length);
    copies.set(value, copy);
    for (let index = 0; index < value.length; index++) {
      const item = index in value ? prototypeFreeCopy(value[index], copies, depth + 1) : NOT_PLAIN;
      if (item === NOT_PLAIN) return NOT_PLAIN;
      copy[index] = item;
    }
    return copy;
  }
  if (prototype !== Object.prototype && prototype !== null) return NOT_PLAIN;
  // No prototype from the start: a `__proto__` key is then assigned as a key like any other.
  const copy = Object.create(null) as Record<string, unknown>;
  copies.set(value, copy);
  for (const key of Object.keys(value)) {
    const item = prototypeFreeCopy((value as Record<string, unknown>)[key], copies, depth + 1);
    if (item === NOT_PLAIN) return NOT_PLAIN;
    copy[key] = item;
  }
  return copy;
}

/**
 * What `JSON.parse(JSON.stringify(value))` gives (ordinary objects, the same key order), copied
 * directly when `value` is plain JSON data: about twice as fast on a big org. Anything the round
 * trip would change or drop (undefined, a hole, -0, a number JSON cannot write, a function, a
 * `__proto__` key, an object of some class, nesting deeper than MAX_DIRECT_DEPTH) takes the round trip itself.
 */
export function jsonRoundTrip<T>(value: T): T {
  const copy = plainJsonCopy(value, 0);
  return copy === NOT_PLAIN ? (JSON.parse(JSON.stringify(value)) as T) : (copy as T);
}

const NOT_PLAIN = Symbol('not plain JSON');
/** Ours: far below where the call stack ends, far above any org's nesting. */
const MAX_DIRECT_DEPTH = 1000;

function plainJsonCopy(value: unknown, depth: number): unknown {
  if (typeof value === 'string' || typeof value === 'boolean' || value === null) return value;
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0) ? value : NOT_PLAIN;
  if (typeof value !== 'object' || depth === MAX_DIRECT_DEPTH) return NOT_PLAIN;
  const prototype = Object.getPrototypeOf(value);
  if (Array.isArray(value)) {
    if (prototype !== Array.prototype) return NOT_PLAIN;
    const copy: unknown[] = new Array(value.length);
    for (let index = 0; index < value.length; index++) {
      const item = value[index] === undefined ? NOT_PLAIN : plainJsonCopy(value[index], depth + 1);
      if (item === NOT_PLAIN) return NOT_PLAIN;
      copy[index] = item;
    }
    return copy;
  }
  if (prototype !== Object.prototype && prototype !== null) return NOT_PLAIN;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = key === '__proto__' ? NOT_PLAIN : plainJsonCopy((value as Record<string, unknown>)[key], depth + 1);
    if (item === NOT_PLAIN) return NOT_PLAIN;
    copy[key] = item;
  }
  return copy;
}

/** The value `record` holds under `key` itself, never one its prototype answers with (`toString`). */
export function own<T>(record: Readonly<Record<string, T>> | null | undefined, key: string): T | undefined {
  return record != null && Object.hasOwn(record, key) ? record[key] : undefined;
}
