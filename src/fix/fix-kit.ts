import type { Finding } from '../model/finding.js';

/** The fix kit (docs/formats.md, the report `fixes`): files for people to apply; the tool itself never sends them. */

type FixKind = 'repo-patch' | 'resource' | 'data-migration' | 'bulk-upsert' | 'predicted-org' | 'readme';

export interface FixFile {
  /** Relative to the fix folder, with `/`. */
  path: string;
  kind: FixKind;
  /** Ids of the findings this file resolves. */
  findings: string[];
  content: string;
  /** The text piece by piece, made as it is written (the predicted org, too large to hold as one string; the resource bodies): `content` then makes it whole. */
  pieces?: () => Iterable<string>;
  /** The exact bytes to write when they are not `content` in UTF-8 (a patch of a Latin-1 file). */
  bytes?: Uint8Array;
}

export type FileEncoding = 'utf8' | 'latin1';

/** One file the patch changes: the text it was computed from and the text after it (`--fix` writes it). */
export interface PatchedFile {
  path: string;
  before: string;
  after: string;
  encoding?: FileEncoding;
}

/** A finding whose fix could not be computed, and what is missing for it. */
export interface UnresolvedFix {
  id: string;
  missing: string;
}

export interface FixKit {
  files: FixFile[];
  unresolved: UnresolvedFix[];
  /** The repository files `repo.patch` changes, before and after: `--fix` writes them in place. */
  patched: PatchedFile[];
}

/** A kit file made as it is written, piece by piece (bench:scale: the predicted org of a million entities was one 277 MB string). */
export function streamedFile(path: string, kind: FixKind, findings: string[], pieces: () => Iterable<string>): FixFile {
  return {
    path,
    kind,
    findings,
    pieces,
    get content() {
      return [...pieces()].join('');
    },
  };
}

/** JSON files of the kit: two-space indent and a final newline, so they diff and paste cleanly. */
export const jsonText = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** What a finding with no rewrite lacks: the teams map for a title, else a person's decision. */
export function missingFix(finding: Finding): string {
  if (/--teams-map/.test(finding.suggestion)) return 'a team identifier that is not known yet: pass --teams-map (or re-run once the _team entities exist)';
  if (finding.verdict === 'review') return 'a decision by a person: the expression reads team values, and what it should read instead depends on its intent';
  return 'a person to write the new value: no rewrite could be computed, because what to write depends on what the code is meant to do (see the suggestion)';
}

/**
 * docs/formats.md, the report: the kit writes only rewrites proven to keep behaviour; a suggested one is
 * unresolved, saying where it differs, in the finding's own words.
 */
export function unprovenRewrite(finding: Finding): string | undefined {
  if (finding.rewriteProof !== 'suggested') return undefined;
  const where = /This rewrite is a suggestion, not proven: (.*)$/.exec(finding.suggestion)?.[1];
  return `a rewrite proven to keep what it does: the one suggested was not${where ? ` (${where.replace(/\.$/, '')})` : ''}, so a person must check it`;
}
