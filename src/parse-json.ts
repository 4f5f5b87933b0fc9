import type { JsonValue } from './model/json.js';

/** The value a JSON text holds, or undefined when it is no JSON (JSON itself has no undefined). */
export function parsedJson(text: string): JsonValue | undefined {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
}
