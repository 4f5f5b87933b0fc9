/**
 * Strings in UTF-16 code-unit order, for every sort an output shows: the same on every machine,
 * where `localeCompare` follows the machine's locale and would reorder a report between runs.
 */
export const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
