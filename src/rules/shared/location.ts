const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

/**
 * A dotted path into a resource: `trigger.userInputs.properties.service.visible.jqQuery`.
 * Keys that would be ambiguous in dotted form are bracketed (`blueprintConfig["my.bp"]`) and
 * array positions are `[n]`.
 */
export type Path = readonly (string | number)[];

export function joinPath(...segments: readonly (string | number)[]): string {
  let path = '';
  for (const segment of segments) {
    if (typeof segment === 'number') path += `[${segment}]`;
    else if (PLAIN_KEY.test(segment)) path += path === '' ? segment : `.${segment}`;
    else path += `[${JSON.stringify(segment)}]`;
  }
  return path;
}
