import { controlsShown } from '../terminal-text.js';

/** Characters XML 1.0 cannot hold at all, not even escaped: C0 controls but tab, LF and CR, lone surrogates, U+FFFE/U+FFFF. */
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/**
 * Text content: every markup character escaped, control characters shown as escapes (XML cannot hold
 * most C0 ones, and CI tabs print the rest), other unrepresentable characters replaced by U+FFFD.
 */
export function escapeXmlText(value: string): string {
  return controlsShown(value, ['\t', '\n', '\r']).replace(NOT_XML, '\uFFFD').replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char);
}

/** Attribute values: as text, plus line breaks and tabs as references so parsers keep them. */
export function escapeXmlAttribute(value: string): string {
  return escapeXmlText(value).replace(/\r/g, '&#13;').replace(/\n/g, '&#10;').replace(/\t/g, '&#9;');
}

/**
 * Outside text inside text content, on a line of ours: its line breaks are references, so a
 * reader gets them back while every line of the file is one we wrote (none can start a
 * workflow command when a CI step prints the file).
 */
export function escapeXmlLine(value: string): string {
  return escapeXmlText(value).replace(/\r/g, '&#13;').replace(/\n/g, '&#10;');
}
