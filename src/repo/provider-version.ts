/** The first provider version with a working `port_system_blueprint` (external-definitions.md §1). */
export const SYSTEM_BLUEPRINT_VERSION: Version = [2, 2, 0];

export type Version = [number, number, number];

interface Constraint {
  operator: string;
  version: Version;
  /** How many parts were written: `~> 2.1` pins the major, `~> 2.1.0` the minor. */
  parts: number;
}

function parseVersion(text: string): { version: Version; parts: number } | undefined {
  const match = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(text.trim());
  if (!match) return undefined;
  const parts = match.slice(1).filter((p) => p !== undefined).length;
  return { version: [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)], parts };
}

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** Terraform's constraint syntax: comma-separated `=`, `!=`, `>`, `>=`, `<`, `<=`, `~>`. */
function parseConstraints(text: string): Constraint[] | undefined {
  const constraints: Constraint[] = [];
  for (const part of text.split(',')) {
    const match = /^\s*(~>|>=|<=|!=|=|>|<)?\s*(\S+)\s*$/.exec(part);
    const parsed = match ? parseVersion(match[2]!) : undefined;
    if (!match || !parsed) return undefined;
    constraints.push({ operator: match[1] ?? '=', version: parsed.version, parts: parsed.parts });
  }
  return constraints;
}

function satisfies(version: Version, constraint: Constraint): boolean {
  const c = compare(version, constraint.version);
  switch (constraint.operator) {
    case '=':
      return c === 0;
    case '!=':
      return c !== 0;
    case '>':
      return c > 0;
    case '>=':
      return c >= 0;
    case '<':
      return c < 0;
    case '<=':
      return c <= 0;
    default: {
      // `~> X.Y` allows X.Y up to X+1; `~> X.Y.Z` allows up to X.(Y+1); `~> X` up to X+1.
      const [major, minor] = constraint.version;
      const upper: Version = constraint.parts >= 3 ? [major, minor + 1, 0] : [major + 1, 0, 0];
      return c >= 0 && compare(version, upper) < 0;
    }
  }
}

/**
 * Whether the constraint admits any version at or above `floor`. The candidates are the floor
 * and the versions the constraint names plus one patch, minor and major step: any satisfiable
 * range above the floor contains one of them. Undefined when the text is not a constraint we can read.
 */
export function allowsAtLeast(text: string, floor: Version): boolean | undefined {
  const constraints = parseConstraints(text);
  if (!constraints) return undefined;
  const candidates: Version[] = [floor];
  for (const { version: [a, b, c] } of constraints) {
    candidates.push([a, b, c], [a, b, c + 1], [a, b + 1, 0], [a + 1, 0, 0]);
  }
  return candidates
    .filter((candidate) => compare(candidate, floor) >= 0)
    .some((candidate) => constraints.every((constraint) => satisfies(candidate, constraint)));
}

/** Whether the constraint admits 2.2.0 or later (a working port_system_blueprint). */
export const allowsSystemBlueprint = (text: string): boolean | undefined => allowsAtLeast(text, SYSTEM_BLUEPRINT_VERSION);
