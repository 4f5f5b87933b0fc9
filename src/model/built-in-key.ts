import { isObject, type JsonValue } from './json.js';

/**
 * The key of a `{context, property}` value, or of a string the service fills ("My Teams",
 * `{{getUserTeams()}}`); undefined for anything else. What each stands for is the judge's
 * (src/judge/built-in-values.ts); a repository's reader only needs to know one is no team of its own.
 */
export function builtInKey(value: JsonValue | undefined): string | undefined {
  if (typeof value === 'string') {
    const compact = value.replace(/\s+/g, '');
    if (value === 'My Teams') return 'My Teams';
    if (compact === '{{getUserTeams()}}') return '{{getUserTeams()}}';
    if (compact === '{{getUserEmail()}}') return '{{getUserEmail()}}';
    return undefined;
  }
  if (isObject(value) && typeof value.context === 'string' && typeof value.property === 'string') return `${value.context}.${value.property}`;
  return undefined;
}

