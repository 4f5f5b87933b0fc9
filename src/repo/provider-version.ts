import { unique } from '../model/arrays.js';
import { findEntry, spanText, stringValue, type ObjectNode } from './tree.js';

/** The first provider version with a working `port_system_blueprint` (docs/repository-scans.md, Provider versions). */
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

export function compareVersions(a: Version, b: Version): number {
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

/** How a comparison of a version with a constraint's must come out, per operator (`~>` aside). */
const COMPARISONS: Readonly<Record<string, (c: number) => boolean>> = { '=': (c) => c === 0, '!=': (c) => c !== 0, '>': (c) => c > 0, '>=': (c) => c >= 0, '<': (c) => c < 0, '<=': (c) => c <= 0 };

function satisfies(version: Version, constraint: Constraint): boolean {
  const c = compareVersions(version, constraint.version);
  const compared = COMPARISONS[constraint.operator];
  if (compared) return compared(c);
  // `~> X.Y` allows X.Y up to X+1; `~> X.Y.Z` allows up to X.(Y+1); `~> X` up to X+1.
  const [major, minor] = constraint.version;
  const upper: Version = constraint.parts >= 3 ? [major, minor + 1, 0] : [major + 1, 0, 0];
  return c >= 0 && compareVersions(version, upper) < 0;
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
    .filter((candidate) => compareVersions(candidate, floor) >= 0)
    .some((candidate) => constraints.every((constraint) => satisfies(candidate, constraint)));
}

/** What a configuration does that needs a provider version (the provider changelog facts). */
export interface ProviderNeed {
  floor: Version;
  /** Why, in a few words: `port_system_blueprint for _team`. */
  why: string;
  /** `path:line` of the resource that needs it. */
  at: string;
  /** Needed only when the migration gives this blueprint Direct ownership (its entities carry teams): the scan decides once every file is read. */
  ifDirectOwnership?: string;
}

/** The provider facts of one file: its constraint, its 0.x resources, what it needs. */
export interface ProviderFacts {
  /** Absent for Terraform; Pulumi facts come from programs (needs) and manifests (constraint). */
  tool?: 'pulumi';
  constraint?: { text: string; at: string };
  /** A 0.x resource (`port-labs_*`) that holds team content. */
  legacy?: { type: string; at: string };
  needs: ProviderNeed[];
}

/** A file's provider facts once every file is read: a need for ownership support stands where the migration gives the blueprint Direct ownership. */
export function neededWith(facts: ProviderFacts, directOwnership: ReadonlySet<string>): ProviderFacts {
  return { ...facts, needs: facts.needs.flatMap(({ ifDirectOwnership, ...need }) => (ifDirectOwnership === undefined || directOwnership.has(ifDirectOwnership) ? [need] : [])) };
}

/**
 * What a resource asks of the provider (or the Pulumi package that bridges it) once the migration's
 * changes are written (provider changelog); `names`: the tool's names of the resources (Terraform's
 * types, Pulumi's classes) and a blueprint's inheritance keys.
 */
export function resourceNeeds(type: string, block: ObjectNode, where: string, names: { blueprint: string; system: string; permissions: string; entity: string; inheritance: readonly string[] }): ProviderNeed[] {
  const identifier = stringValue(findEntry(block, 'identifier')?.value);
  const inheritance = findEntry(block, ...names.inheritance, 'ownership');
  const needs: ProviderNeed[] = [];
  if ((type === names.blueprint || type === names.system) && (identifier === '_team' || identifier === '_user')) {
    needs.push({ floor: SYSTEM_BLUEPRINT_VERSION, why: `${names.system} for ${identifier}`, at: where });
  } else if (type === names.blueprint && (inheritance || identifier !== undefined)) {
    needs.push({ floor: OWNERSHIP_VERSION, why: `ownership on ${names.blueprint}`, at: where, ...(!inheritance && { ifDirectOwnership: identifier }) });
  }
  const hasTeams = /\bteams\s*"?\s*[=:]\s*(\[\s*[^\]\s]|[A-Za-z])/.test(spanText(block.span));
  if (type === names.permissions && hasTeams) needs.push({ floor: PERMISSIONS_IMPORT_VERSION, why: `importing ${names.permissions} (it crashes before)`, at: where });
  if (type === names.entity && findEntry(block, 'teams')) needs.push({ floor: ENTITY_TEAM_ORDER_VERSION, why: `${names.entity} teams without order drift`, at: where });
  return needs;
}

export const OWNERSHIP_VERSION: Version = [2, 1, 4];
export const TEAM_IDENTIFIER_VERSION: Version = [2, 5, 0];
const ENTITY_TEAM_ORDER_VERSION: Version = [2, 13, 3];
const PERMISSIONS_IMPORT_VERSION: Version = [2, 15, 1];

/**
 * The Pulumi package (npm `@port-labs/port`, PyPI `port_pulumi`, Go `github.com/port-labs/pulumi-port/sdk`)
 * is bridged from the Terraform provider: per Terraform floor, the first pulumi-port release whose
 * provider/go.mod requires a terraform-provider-port-labs at or above it (read from the tags of
 * github.com/port-labs/pulumi-port; packages are published with the tag's version). There is no
 * Pulumi 2.5.x or 2.15.x: 2.4.0 bridges 2.4.0 and 2.6.0 bridges 2.6.0; 2.14.4 bridges 2.14.4 and
 * 2.16.0 bridges 2.16.0; 2.13.2 bridges 2.13.2 and 2.13.4 bridges 2.13.4.
 */
const PULUMI_FLOORS: readonly (readonly [terraform: Version, pulumi: Version])[] = [
  [OWNERSHIP_VERSION, [2, 1, 4]],
  [SYSTEM_BLUEPRINT_VERSION, [2, 2, 0]],
  [TEAM_IDENTIFIER_VERSION, [2, 6, 0]],
  [ENTITY_TEAM_ORDER_VERSION, [2, 13, 4]],
  [PERMISSIONS_IMPORT_VERSION, [2, 16, 0]],
];

/** The Pulumi package version that first bridges a Terraform provider floor; undefined for a floor not in the table. */
export function pulumiFloor(terraform: Version): Version | undefined {
  return PULUMI_FLOORS.find(([floor]) => compareVersions(floor, terraform) === 0)?.[1];
}

/** What differs between the tools the advice is written for; the deciding is shared. */
interface AdviceTool {
  what: string;
  /** The package or provider whose version is meant. */
  name: string;
  floor: (terraform: Version) => Version | undefined;
  allows: (text: string, floor: Version) => boolean | undefined;
  noConstraint: string;
  /** How to allow `top`, in the syntax of the file at `at` (where the constraint is written). */
  example: (top: Version, at: string) => string;
}

const TERRAFORM: AdviceTool = {
  what: 'Terraform configuration',
  name: 'the provider constraint',
  floor: (version) => version,
  allows: allowsAtLeast,
  noConstraint: 'no version constraint for port-labs/port-labs was found; check that the provider in use is new enough',
  example: (top) => ` (for example \`version = ">= ${versionText(top)}, < ${top[0] + 1}.0.0"\`)`,
};

const PULUMI: AdviceTool = {
  what: 'Pulumi project',
  name: 'the Port package version',
  floor: pulumiFloor,
  allows: allowsPackageVersion,
  noConstraint: 'no pinned version of the Port package (npm @port-labs/port, PyPI port_pulumi) was found next to the program; check that the package in use is new enough',
  example: (top, at) => (/package\.json:/.test(at) ? ` (for example \`"@port-labs/port": "^${versionText(top)}"\`)` : ` (for example \`port_pulumi>=${versionText(top)},<${top[0] + 1}\`)`),
};

/** A version as people write it: 2.1.4. */
export const versionText = (version: Version): string => version.join('.');

/**
 * One advice line per configuration (a directory's `.tf` files, or a Pulumi project's programs and
 * manifests), only where it manages what the migration touches and its constraint (or its 0.x
 * resources) keeps out a version it needs. Advice, never a team-reference finding and never
 * `breaks`: the kit's steps need the floor, and whether the version in use is older is for a person
 * to check (`review`).
 */
export function providerAdvice(configuration: string, files: readonly ProviderFacts[]): string | undefined {
  const tool = files.some((file) => file.tool === 'pulumi') ? PULUMI : TERRAFORM;
  const needs = files.flatMap((file) => file.needs);
  const legacy = files.find((file) => file.legacy)?.legacy;
  const constraint = files.find((file) => file.constraint)?.constraint;
  const where = configuration || '.';
  if (legacy) {
    return `review: Terraform configuration ${where}/ uses the 0.x provider's resources (${legacy.type} at ${legacy.at}) with team values or team inheritance, which cannot express ownership: upgrade to port-labs/port-labs ≥ 2.2.0 (from 1.0 resources are named port_*), then run this check again.`;
  }
  // Each need's floor in the tool's own versions, with the Terraform one it stands for.
  const floors = needs.flatMap((need) => {
    const floor = tool.floor(need.floor);
    return floor ? [{ ...need, floor, terraform: need.floor }] : [];
  });
  if (floors.length === 0) return undefined;
  // An unreadable constraint (`latest`, a git URL) is as unknowable as none.
  const excluded = constraint ? floors.filter((need) => tool.allows(constraint.text, need.floor) !== true) : floors;
  if (excluded.length === 0) return undefined;
  const bridging = (need: (typeof excluded)[number]) => (tool === PULUMI ? `, which bridges Terraform provider ${versionText(need.terraform)}` : '');
  const reasons = unique(excluded.map((need) => `≥ ${versionText(need.floor)} for ${need.why}${bridging(need)} (${need.at})`)).join('; ');
  const top = excluded.reduce((max, need) => (compareVersions(need.floor, max) > 0 ? need.floor : max), excluded[0]!.floor);
  const readable = constraint !== undefined && tool.allows(constraint.text, top) !== undefined;
  const head = !constraint
    ? `${tool.noConstraint}: ${reasons}`
    : readable
      ? `${tool.name} "${constraint.text}" (${constraint.at}) keeps out versions it needs: ${reasons}`
      : `${tool.name} "${constraint.text}" (${constraint.at}) is no version range this check can read; check that the version in use is new enough: ${reasons}`;
  const example = constraint ? tool.example(top, constraint.at) : '';
  return `review: ${tool.what} ${where}/: ${head}. Allow ${versionText(top)} or later${example} before applying the migration's changes.`;
}

/**
 * npm (`^2.1.0`, `~2.1`, `2.1.x`, `>=2.1 <3`, `a || b`), pip (`==2.1.0`, `~=2.1`, `>=2.1,<3`) and
 * Poetry (`^2.1`) ranges, read by turning each alternative into Terraform's syntax. Undefined when
 * the text is no range (`latest`, a git URL).
 */
export function allowsPackageVersion(text: string, floor: Version): boolean | undefined {
  const alternatives = text.split('||').map((alternative) => packageRangeAsTerraform(alternative.trim()));
  if (alternatives.some((alternative) => alternative === undefined)) return undefined;
  const answers = alternatives.map((alternative) => (alternative === '' ? true : allowsAtLeast(alternative!, floor)));
  if (answers.some((answer) => answer === true)) return true;
  return answers.some((answer) => answer === undefined) ? undefined : false;
}

/** One range alternative in Terraform's constraint syntax; '' for any version (`*`, `x`). */
function packageRangeAsTerraform(text: string): string | undefined {
  if (text === '*' || /^x(\.x)*$/i.test(text)) return '';
  const parts: string[] = [];
  for (const part of text.split(/\s*,\s*|\s+(?=[<>=!~^])/).filter(Boolean)) {
    const match = /^(\^|~=|~|==|>=|<=|!=|>|<|=)?\s*v?(\d+(?:\.(?:\d+|[x*]))*)$/i.exec(part);
    if (!match) return undefined;
    const operator = match[1] ?? '';
    const numbers = match[2]!.split('.').filter((n) => /^\d+$/.test(n));
    const wildcard = numbers.length < match[2]!.split('.').length;
    const [major = '0', minor = '0', patch = '0'] = numbers;
    const version = `${major}.${minor}.${patch}`;
    if (operator === '^') {
      // `^2.1.0` up to 3.0.0; `^0.x` is not a range Port's packages use.
      parts.push(`>= ${version}`, `< ${Number(major) + 1}.0.0`);
    } else if (operator === '~' || (operator === '' && wildcard)) {
      // `~2.1.0` and `2.1.x` up to 2.2.0; `~2` and `2.x` up to 3.0.0.
      parts.push(`>= ${version}`, numbers.length >= 2 ? `< ${major}.${Number(minor) + 1}.0` : `< ${Number(major) + 1}.0.0`);
    } else if (operator === '~=') {
      parts.push(`~> ${numbers.join('.')}`); // pip's compatible release is Terraform's pessimistic one
    } else {
      parts.push(`${operator === '==' || operator === '' ? '=' : operator} ${version}`);
    }
  }
  return parts.length > 0 ? parts.join(', ') : undefined;
}
