import yaml from 'js-yaml';

/**
 * A value written into a file in the file's own language (issue 23): identifiers the service
 * accepts (`@platform`, `1234`, `yes`) are not all plain YAML scalars, and a teams map may hold
 * `${…}`, which Terraform and a JS template literal would evaluate.
 */

/** YAML 1.1 words that some parsers still read as booleans, beside what js-yaml (1.2) resolves. */
const YAML11_WORDS = /^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF)$/;

/** Whether `value` reads back as the same string when written bare in YAML. */
function isPlainYaml(value: string): boolean {
  if (value === '' || value !== value.trim() || YAML11_WORDS.test(value) || /[\n\r\t]/.test(value)) return false;
  try {
    // Read back in a mapping as it is written there: a number, a date, a comment or an indicator changes it.
    return (yaml.load(`k: ${value}`) as { k?: unknown } | null)?.k === value;
  } catch {
    return false;
  }
}

/** `value` as a YAML scalar: bare when it reads back as itself, else double-quoted (JSON's escapes are YAML's). */
export function yamlScalar(value: string): string {
  return isPlainYaml(value) ? value : JSON.stringify(value);
}

/** `value` in a YAML single-quoted scalar: a quote is written twice. */
export function yamlSingleQuoted(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** `value` in an HCL double-quoted string: JSON's escapes, and `${` / `%{` written `$${` / `%%{` so Terraform does not evaluate them. */
export function hclString(value: string): string {
  return JSON.stringify(value).replace(/\$\{/g, () => '$${').replace(/%\{/g, () => '%%{');
}

/** `value` in a JS template literal: backquote, backslash and `${` escaped. */
export function jsTemplateLiteral(value: string): string {
  return `\`${value.replace(/[`\\]/g, (c) => `\\${c}`).replace(/\$\{/g, () => '\\${')}\``;
}
