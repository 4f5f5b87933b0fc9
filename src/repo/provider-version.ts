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

/** What a configuration does that needs a provider version (the provider changelog facts). */
export interface ProviderNeed {
  floor: Version;
  /** Why, in a few words: `port_system_blueprint for _team`. */
  why: string;
  /** `path:line` of the resource that needs it. */
  at: string;
}

/** The provider facts of one `.tf` file: its constraint, its 0.x resources, what it needs. */
export interface ProviderFacts {
  constraint?: { text: string; at: string };
  /** A 0.x resource (`port-labs_*`) that holds team content. */
  legacy?: { type: string; at: string };
  needs: ProviderNeed[];
}

export const OWNERSHIP_VERSION: Version = [2, 1, 4];
export const TEAM_IDENTIFIER_VERSION: Version = [2, 5, 0];
export const ENTITY_TEAM_ORDER_VERSION: Version = [2, 13, 3];
export const PERMISSIONS_IMPORT_VERSION: Version = [2, 15, 1];

const shown = (version: Version): string => version.join('.');

/**
 * One advice line per Terraform configuration (a directory's `.tf` files), only where it manages
 * what the migration touches and its constraint (or its 0.x resources) keeps out a version it
 * needs. Advice, never a team-reference finding and never `breaks`: the kit's steps need the
 * floor, and whether the provider in use is older is for a person to check (`review`).
 */
export function providerAdvice(configuration: string, files: readonly ProviderFacts[]): string | undefined {
  const needs = files.flatMap((file) => file.needs);
  const legacy = files.find((file) => file.legacy)?.legacy;
  const constraint = files.find((file) => file.constraint)?.constraint;
  const where = configuration || '.';
  if (legacy) {
    return `review: Terraform configuration ${where}/ uses the 0.x provider's resources (${legacy.type} at ${legacy.at}) with team values or team inheritance, which cannot express ownership: upgrade to port-labs/port-labs ≥ 2.2.0 (from 1.0 resources are named port_*), then run this check again.`;
  }
  if (needs.length === 0) return undefined;
  const excluded = constraint ? needs.filter((need) => allowsAtLeast(constraint.text, need.floor) === false) : needs;
  if (excluded.length === 0) return undefined;
  const reasons = distinct(excluded.map((need) => `≥ ${shown(need.floor)} for ${need.why} (${need.at})`)).join('; ');
  const top = excluded.reduce((max, need) => (compare(need.floor, max) > 0 ? need.floor : max), excluded[0]!.floor);
  const head = constraint
    ? `the provider constraint "${constraint.text}" (${constraint.at}) keeps out versions it needs: ${reasons}`
    : `no version constraint for port-labs/port-labs was found; check that the provider in use is new enough: ${reasons}`;
  const example = constraint ? ` (for example \`version = ">= ${shown(top)}, < ${top[0] + 1}.0.0"\`)` : '';
  return `review: Terraform configuration ${where}/: ${head}. Allow ${shown(top)} or later${example} before applying the migration's changes.`;
}

const distinct = (lines: string[]): string[] => [...new Set(lines)];
