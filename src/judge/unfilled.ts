/**
 * Whether an expression reads values no context of the judge can know (`.entity.properties.region`,
 * `.form.reason`): then "the same before and after" may only mean the contexts lacked what decides
 * it, and the decision table sends it to review. Reading alone over-counts: a path into a value
 * the expression builds itself (an object keyed by team, `to_entries`' `.key` and `.value`, a
 * lookup into such an object) resolves nowhere in the context, yet every context knows it. So a
 * path the contexts do not fill counts only when running shows it reaches them: filled with
 * probe values on every object of the context, it changes what the expression gives.
 */
import { rememberJsonText, type JqEngine } from '../jq/engine.js';
import { sameResult } from './differential.js';
import { extractReferences, valueStrings, type FieldPath, type JqReferences } from '../jq/references.js';
import { readAtRoot, rootedStarts } from './read-at-root.js';
import { isObject, keyedRecord, own, type JsonValue } from '../model/json.js';
import { WHOLE_PARTS } from './worlds.js';
import type { SampleKind } from '../model/sites.js';

/** Stands for a value the contexts lack: nothing else in a context or an expression holds it. */
const PROBE = '__unfilled_probe__';
/** Ours: strings of the expression also tried as the missing value (`== "eu"` shows only with "eu"). */
const MAX_LITERAL_PROBES = 2;
/** Ours: contexts filled and run; the first ones hold one team each, which is where a read shows. */
const MAX_FILLED_CONTEXTS = 3;

/**
 * The reads (as written) that reach values the contexts do not hold, or none. `contexts` are what
 * the expression was judged on (one world is enough: filling is the same in both); `teamValues`
 * are tried as the missing value too, since what matters is whether it meets the team values.
 */
export function unfilledReads(jq: JqEngine, expression: string, references: JqReferences, contexts: readonly JsonValue[], teamValues: readonly string[] = [], kind?: SampleKind): string[] {
  const first = contexts[0];
  if (first === undefined) return [];
  // A path is read where the expression reads it: one at the top of the input is filled only there.
  const read = extractReferences(expression);
  const starts = rootedStarts(read.ok ? read.tokens : []);
  // What the context holds whole, as the service gives it (worlds.ts `WHOLE_PARTS`): a read there that finds nothing finds what the service has.
  const whole = kind === undefined ? [] : WHOLE_PARTS[kind];
  const paths = unfilledPaths(references.paths, first, (path) => readAtRoot(starts, path)).filter((path) => path.variable !== undefined || !whole.includes(path.segments[0] ?? ''));
  if (paths.length === 0) return [];
  const literals = [...new Set(valueStrings(references).map((literal) => literal.value))].slice(0, MAX_LITERAL_PROBES);
  const probes = [...new Set([PROBE, ...literals, ...teamValues])];
  const tried = contexts.slice(0, MAX_FILLED_CONTEXTS);
  // A read nearly always shows on the first context: the others are filled and asked for only where it
  // does not, and a plan (whose made-up answers never show one) asks for the first alone (a tenth of a 10x org's runs).
  const fillings: JsonValue[][] = [];
  const filled = (c: number) => (fillings[c] ??= filledWithEach(tried[c]!, paths, probes));
  const reaches = tried.some((context, c) => {
    if (c > 0 && jq.plansOnly) return false;
    if (c < 2) jq.prefetch?.({ evaluate: [{ expression, inputs: c === 0 ? [context, ...filled(0)] : [...tried.slice(1), ...tried.slice(1).flatMap((_, i) => filled(i + 1))] }] });
    const plain = jq.evaluate(context, expression);
    return filled(c).some((input) => !sameResult(plain, jq.evaluate(input, expression)));
  });
  return reaches ? [...new Set(paths.map((path) => expression.slice(path.start, path.end)))] : [];
}

/**
 * The context filled once per probe, in `probes`' order. A big org judges thousands of these, so
 * the context is copied and filled once, with PROBE, and each other probe is that JSON text with
 * the probe's text in PROBE's places (a context that already holds PROBE's text is filled anew).
 */
function filledWithEach(context: JsonValue, paths: readonly FieldPath[], probes: readonly string[]): JsonValue[] {
  // Contexts are shared per spec (classify.ts `inputsOf`) and expressions repeat their reads, so
  // the same filling recurs across expressions and across the planning run and the real one.
  if (typeof context !== 'object' || context === null) return fillEach(context, paths, probes);
  let byKey = filledCache.get(context);
  if (!byKey) filledCache.set(context, (byKey = new Map()));
  const key = JSON.stringify([paths.map((path) => path.segments), probes]);
  let filled = byKey.get(key);
  if (!filled) {
    if (byKey.size >= MAX_FILLINGS_PER_CONTEXT) byKey.clear();
    // One bound for them all: past it the kept fillings are let go, and filled again when asked.
    if (++cachedFillings > MAX_CACHED_FILLINGS) {
      filledCache = new WeakMap();
      cachedFillings = 1;
      filledCache.set(context, (byKey = new Map()));
    }
    byKey.set(key, (filled = fillEach(context, paths, probes)));
  }
  return filled;
}

/** Ours: fillings kept per context; a context's expressions read a few dozen distinct paths at most. */
const MAX_FILLINGS_PER_CONTEXT = 64;
/** Ours: fillings kept in all (each a few contexts of about 1 KB): well under 100 MB. */
const MAX_CACHED_FILLINGS = 20_000;
let filledCache = new WeakMap<object, Map<string, JsonValue[]>>();
let cachedFillings = 0;

function fillEach(context: JsonValue, paths: readonly FieldPath[], probes: readonly string[]): JsonValue[] {
  const template = withPaths(context, paths, PROBE);
  const text = JSON.stringify(template);
  const marker = JSON.stringify(PROBE);
  const parts = text.split(marker);
  // PROBE's text already in the context, or in a name the paths write: replacing it would change those too.
  const heldAlready = JSON.stringify(context).includes(PROBE) || paths.some((path) => path.segments.some((segment) => segment.includes(PROBE)));
  return probes.map((probe) => {
    if (probe === PROBE) return remembered(template, text);
    if (heldAlready) return withPaths(context, paths, probe);
    const filled = parts.join(JSON.stringify(probe));
    return remembered(JSON.parse(filled) as JsonValue, filled);
  });
}

function remembered(value: JsonValue, text: string): JsonValue {
  if (typeof value === 'object' && value !== null) rememberJsonText(value, text);
  return value;
}

/** The context with every object given each path (where it lacks it) ending in `probe`. */
function withPaths(context: JsonValue, paths: readonly FieldPath[], probe: string): JsonValue {
  const fill = (value: JsonValue): JsonValue => {
    if (Array.isArray(value)) return value.map(fill);
    if (!isObject(value)) return value;
    const out = keyedRecord();
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      const item = (value as Record<string, JsonValue | undefined>)[key];
      if (item !== undefined) out[key] = fill(item);
    }
    for (const path of paths) setMissing(out, path.segments, 0, probe);
    return out;
  };
  return fill(context);
}

function setMissing(node: Record<string, JsonValue>, segments: readonly string[], at: number, probe: string): void {
  const head = segments[at];
  if (head === undefined) return;
  const current = own(node, head);
  if (at === segments.length - 1) {
    if (current === undefined) node[head] = probe;
    return;
  }
  if (current === undefined) {
    const child = keyedRecord();
    node[head] = child;
    setMissing(child, segments, at + 1, probe);
  } else if (isObject(current)) {
    setMissing(current as Record<string, JsonValue>, segments, at + 1, probe);
  }
}

/**
 * Paths the sample has no value for. A path read at the top of the input (`rooted`) counts as
 * filled when it resolves from the root: a run's `.relations.x` is none of its entities'. Any other
 * counts when it resolves from any object inside the sample (`map(.team)` runs on the entities of a
 * result, `$e.team` on whatever `$e` was bound to); arrays are looked through, as `[]` in the path would.
 */
export function unfilledPaths(paths: readonly FieldPath[], sample: JsonValue, rooted: (path: FieldPath) => boolean = () => false): FieldPath[] {
  const nodes = objectNodes(sample);
  return paths.filter((path) => (rooted(path) ? !resolves(sample, path.segments) : !nodes.some((node) => resolves(node, path.segments))));
}

function objectNodes(value: JsonValue, out: JsonValue[] = []): JsonValue[] {
  if (Array.isArray(value)) for (const item of value) objectNodes(item, out);
  else if (isObject(value)) {
    out.push(value);
    for (const child of Object.values(value)) if (child !== undefined) objectNodes(child, out);
  }
  return out;
}

function resolves(node: JsonValue, segments: readonly string[]): boolean {
  let current: JsonValue | undefined = node;
  for (const segment of segments) {
    while (Array.isArray(current)) current = current[0];
    if (!isObject(current)) return false;
    current = own(current, segment);
    if (current === undefined) return false;
  }
  return true;
}
