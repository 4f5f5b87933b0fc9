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
