import { hclString, yamlScalar } from './quote-value.js';
import { spanText, type Entry } from './tree.js';

/** The syntax a file writes values in: rewrites are given in it. */
export type Syntax = 'hcl' | 'js' | 'python' | 'json' | 'yaml';

export interface OwnershipValue {
  type: 'Inherited' | 'Direct';
  path?: string;
}

/** The `ownership` entry written like `entry` was: same key style, separator and value syntax. */
export function ownershipRewrite(entry: Entry, syntax: Syntax, ownership: OwnershipValue): string {
  const pairs: [string, string][] = [['type', ownership.type]];
  if (ownership.path !== undefined) pairs.push(['path', ownership.path]);
  if (syntax === 'yaml') {
    const indent = /^\s*(?:-\s+)?/.exec(spanText(entry.keySpan))?.[0].length ?? 0;
    // In a flow mapping a comma or bracket ends a bare scalar too.
    const scalar = (v: string) => (/[,[\]{}]/.test(v) ? JSON.stringify(v) : yamlScalar(v));
    return `${' '.repeat(indent)}ownership: {${pairs.map(([k, v]) => `${k}: ${scalar(v)}`).join(', ')}}`.trim();
  }
  const keyText = spanText(entry.keySpan);
  const key = keyText.split(entry.key).join('ownership');
  const separator = entry.value.span.source === entry.keySpan.source ? entry.keySpan.source.text.slice(entry.keySpan.end, entry.value.span.start) : ' = ';
  const value = entry.value;
  if (value.kind === 'call') {
    const callee = value.callee.replace(/TeamInheritanceArgs$/, 'OwnershipArgs');
    return `${key}${separator}${callee}(${pairs.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(', ')})`;
  }
  const quotedKeys = /^["']/.test(keyText) || (syntax === 'python' && separator.trim() === '=');
  const body =
    syntax === 'hcl'
      ? `{ ${pairs.map(([k, v]) => `${k} = ${hclString(v)}`).join(', ')} }`
      : quotedKeys || syntax === 'json'
        ? `{${pairs.map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(', ')}}`
        : `{ ${pairs.map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(', ')} }`;
  return `${key}${separator}${body}`;
}
