/**
 * The version constraints a Terraform configuration needs once repo.patch is applied: what the
 * patch adds (resource types, attributes, blocks) has floors, and a constraint written lower would
 * make `terraform init` or `plan` of the patched repository refuse it. Pure: texts in, edits out.
 */
import { allowsAtLeast, compareVersions, versionText, OWNERSHIP_VERSION, SYSTEM_BLUEPRINT_VERSION, type Version } from '../repo/provider-version.js';
import type { TextEdit } from './unified-diff.js';

/** Terraform 1.5 reads `import` blocks, 1.7 `removed` blocks (the Terraform changelog). */
const IMPORT_BLOCK_TERRAFORM: Version = [1, 5, 0];
const REMOVED_BLOCK_TERRAFORM: Version = [1, 7, 0];

/** What added text needs: the provider (port-labs/port-labs) or Terraform itself, from which version. */
interface VersionNeed {
  of: 'provider' | 'terraform';
  floor: Version;
  why: string;
}

/** Each kind of text repo.patch adds to a .tf file, with what it needs. */
const NEEDS: readonly { pattern: RegExp; need: VersionNeed }[] = [
  { pattern: /^\s*resource\s+"port_system_blueprint"/gm, need: { of: 'provider', floor: SYSTEM_BLUEPRINT_VERSION, why: 'the port_system_blueprint resource' } },
  { pattern: /^\s*ownership\s*=/gm, need: { of: 'provider', floor: OWNERSHIP_VERSION, why: 'the ownership attribute' } },
  { pattern: /^\s*import\s*\{/gm, need: { of: 'terraform', floor: IMPORT_BLOCK_TERRAFORM, why: 'import blocks' } },
  { pattern: /^\s*removed\s*\{/gm, need: { of: 'terraform', floor: REMOVED_BLOCK_TERRAFORM, why: 'removed blocks' } },
];

const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;

/** What a file's change adds that needs a version: a kind counts when the text after holds more of it than before. */
export function addedNeeds(before: string, after: string): VersionNeed[] {
  return NEEDS.filter(({ pattern }) => count(after, pattern) > count(before, pattern)).map(({ need }) => need);
}

/** A constraint as written in a file: its text, and where its quoted value sits. */
interface WrittenConstraint {
  of: VersionNeed['of'];
  path: string;
  line: number;
  /** The whole line, as a person would search for it. */
  lineText: string;
  value: string;
  start: number;
  end: number;
}

/**
 * The port-labs/port-labs `version` in a `required_providers` entry and Terraform's
 * `required_version`, found in the text (the entry is the block whose `source` names the provider).
 */
function writtenConstraints(path: string, text: string): WrittenConstraint[] {
  const found: WrittenConstraint[] = [];
  const at = (of: VersionNeed['of'], valueStart: number, value: string) => {
    const lineStart = text.lastIndexOf('\n', valueStart) + 1;
    const lineEnd = text.indexOf('\n', valueStart);
    found.push({
      of,
      path,
      line: text.slice(0, valueStart).split('\n').length,
      lineText: text.slice(lineStart, lineEnd < 0 ? text.length : lineEnd).trim(),
      value,
      start: valueStart,
      end: valueStart + value.length,
    });
  };
  for (const match of text.matchAll(/^\s*required_version\s*=\s*"([^"]*)"/gm)) at('terraform', match.index + match[0].length - match[1]!.length - 1, match[1]!);
  // A provider entry: `name = { … }` holding `source = "…port-labs/port-labs"`; its `version` is in the same braces.
  for (const entry of text.matchAll(/=\s*\{([^{}]*)\}/g)) {
    const body = entry[1]!;
    if (!/\bsource\s*=\s*"(?:[^"]*\/)?port-labs\/port-labs"/.test(body)) continue;
    const version = /\bversion\s*=\s*"([^"]*)"/.exec(body);
    if (!version) continue;
    const bodyStart = entry.index + entry[0].indexOf('{') + 1;
    at('provider', bodyStart + version.index + version[0].length - version[1]!.length - 1, version[1]!);
  }
  return found.sort((a, b) => a.start - b.start);
}

/** A constraint that admits the floor and keeps the major bound: `~> 2.2` for 2.2.0, `>= 2.1.4, < 3.0.0` for 2.1.4. */
export function raisedConstraint(floor: Version): string {
  const [major, minor, patch] = floor;
  return patch === 0 ? `~> ${major}.${minor}` : `>= ${major}.${minor}.${patch}, < ${major + 1}.0.0`;
}

interface ConstraintChange {
  /** The edits to make in `path`, each a constraint raised to the floor its needs call for. */
  edits: { path: string; edit: TextEdit; from: string; to: string; needs: string[] }[];
  /** Constraints this check cannot read: the exact line a person must change, and why. */
  byHand: string[];
}

const highest = (needs: readonly VersionNeed[]): Version => needs.map((need) => need.floor).reduce((a, b) => (compareVersions(a, b) >= 0 ? a : b));

/**
 * For one Terraform configuration (the .tf files of one folder, as the patch leaves them): every
 * written constraint that keeps out a version the patch's additions need is raised; one it cannot
 * read is named with its line for a person. No constraint written means any version: nothing to do.
 */
export function constraintChanges(files: readonly { path: string; text: string }[], needs: readonly VersionNeed[]): ConstraintChange {
  const change: ConstraintChange = { edits: [], byHand: [] };
  for (const file of files) {
    for (const written of writtenConstraints(file.path, file.text)) {
      const mine = needs.filter((need) => need.of === written.of);
      if (mine.length === 0) continue;
      const floor = highest(mine);
      const whys = [...new Set(mine.map((need) => `${need.why} (≥ ${versionText(need.floor)})`))];
      const allows = allowsAtLeast(written.value, floor);
      if (allows === true) continue;
      const to = raisedConstraint(floor);
      if (allows === undefined) {
        change.byHand.push(`${written.path}:${written.line} \`${written.lineText}\` is no version range this check can read; make it "${to}" or another range that admits ${versionText(floor)}, for ${whys.join(', ')}`);
        continue;
      }
      change.edits.push({ path: written.path, edit: { start: written.start, end: written.end, text: to }, from: written.value, to, needs: whys });
    }
  }
  return change;
}
