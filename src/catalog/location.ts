const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

/**
 * A dotted path into a resource: `trigger.userInputs.properties.service.visible.jqQuery`.
 * Keys that would be ambiguous in dotted form are bracketed (`blueprintConfig["my.bp"]`) and
 * array positions are `[n]`.
 */
import type { Path } from '../model/sites.js';
export type { Path };

export function joinPath(...segments: readonly (string | number)[]): string {
  let path = '';
  for (const segment of segments) path = appendPath(path, segment);
  return path;
}

/** `joinPath(...segments, segment)` from `joinPath(...segments)`: a walk writes each path from its parent's. */
export function appendPath(path: string, segment: string | number): string {
  if (typeof segment === 'number') return `${path}[${segment}]`;
  if (PLAIN_KEY.test(segment)) return path === '' ? segment : `${path}.${segment}`;
  return `${path}[${JSON.stringify(segment)}]`;
}

/** Up to `limit` names, quoted, then a count of the rest: a list an org may make long. */
export function quotedSome(names: readonly string[], limit: number): string {
  const shown = names.slice(0, limit).map((name) => JSON.stringify(name)).join(', ');
  return names.length > limit ? `${shown} and ${names.length - limit} more` : shown;
}
