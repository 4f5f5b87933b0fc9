/** A count with its noun in agreement ("1 finding", "3 findings"): every line a user reads says it this way. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The verb form that agrees with a count ("1 person loses", "3 people lose"). */
export function agreeing(n: number, one: string, many: string): string {
  return n === 1 ? one : many;
}
