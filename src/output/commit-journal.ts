import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { errorCode, UsageError } from '../errors.js';
import { isObject } from '../model/json.js';
import { isReportFile, OWN_OUTPUTS } from './own-outputs.js';
import { diskDigest, type StagedKind } from './staged-digest.js';
import { isOurKit, kindAt, plantedKind } from './out-entries.js';
import { NotRegularFileError, readRegularFile, TooLarge } from '../read-regular-file.js';

/**
 * The commit journal (issue 32): the one file a run leaves in `--out` that a later run acts on.
 * It is obeyed only when it names what a run of this tool staged there:
 *
 * - every name is one of this tool's outputs directly in `--out` (src/output/own-outputs.ts):
 *   no path, no `..`, no separator, no other file; removals are report files only;
 * - the staging folder is derived from the journal's process id and run token, lies directly in
 *   `--out`, is a real folder (not a link), and holds nothing but the files the journal names;
 * - each file or folder is bound to the bytes its run wrote by a digest, checked against what is
 *   in the staging folder (or, for a move already done, in its place) without following a link.
 *
 * All of it is checked before anything is touched; anything else is refused in one line.
 *
 * Why a digest in `--out` rather than a journal kept elsewhere (a per-user state folder no
 * repository supplies): anyone who can write `--out` can also compute a digest, so the digest
 * is no signature; what keeps a planted journal harmless is that it can name nothing but this
 * tool's own outputs in `--out`, which the run then replaces anyway. The digest makes a journal
 * finish only the exact files its run wrote (never a half-replaced or edited staging folder).
 * Keeping the journal in `--out` keeps the promise that a killed run's commit is finished
 * wherever `--out` goes next (a volume mounted in a new container, a workspace kept between
 * jobs), where a journal in the home folder would be lost with the container.
 */

export const JOURNAL = '.teams-migration-audit.commit.json';
export const STAGING_PREFIX = '.tma-staging-';
const FORMAT = 'teams-migration-audit-commit/2';
/** A genuine journal names at most six moves and five removals: a few hundred bytes. */
const MAX_JOURNAL_BYTES = 64 * 1024;

export interface JournalMove {
  /** One of this tool's outputs directly in `--out`. */
  name: string;
  kind: StagedKind;
  /** The digest of what the run staged (src/output/staged-digest.ts). */
  sha256: string;
}

export interface CommitJournal {
  format: typeof FORMAT;
  /** The process that wrote it and a random token of its run: together they name its staging folder. */
  pid: number;
  run: string;
  moves: JournalMove[];
  /** Report files of an earlier run that this run does not write (a format not asked for again). */
  removals: string[];
}

export const newJournal = (pid: number, run: string, moves: JournalMove[], removals: string[]): CommitJournal => ({ format: FORMAT, pid, run, moves, removals });

/** The staging folder in `--out` of the run with this process id and token. */
export const stagingName = (pid: number, run: string): string => `${STAGING_PREFIX}${pid}-${run}`;

const RUN_TOKEN = /^[0-9a-f]{16}$/;
const DIGEST = /^[0-9a-f]{64}$/;

/** A planted journal: one line naming the file and how to clear it (exit 2). */
export class JournalRefused extends UsageError {
  constructor(shown: string, why: string) {
    super(`${shown} ${why}; this tool finishes only a journal of its own, so nothing was touched: remove ${shown} to continue`);
  }
}

/** A name from the file, shown short and quoted (it may be anything). */
const quoted = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
};

/** Why `value` is not a journal this version writes, in words; undefined when its shape is one. */
function journalShapeProblem(value: unknown): string | undefined {
  if (!isObject(value)) return 'is not a JSON object';
  if (value.format !== FORMAT) return 'moves' in value ? 'is not in the format this version writes (an earlier version wrote absolute paths)' : `is not a ${FORMAT} journal`;
  const unknown = Object.keys(value).find((key) => !['format', 'pid', 'run', 'moves', 'removals'].includes(key));
  if (unknown !== undefined) return `has a field ${quoted(unknown)} this tool does not write`;
  if (typeof value.pid !== 'number' || !Number.isSafeInteger(value.pid) || value.pid <= 0) return `names no process id (${quoted(value.pid)})`;
  if (typeof value.run !== 'string' || !RUN_TOKEN.test(value.run)) return `names no run token (${quoted(value.run)})`;
  if (!Array.isArray(value.moves)) return '"moves" is not a list';
  if (!Array.isArray(value.removals)) return '"removals" is not a list';
  const seen = new Set<string>();
  for (const move of value.moves as unknown[]) {
    if (!isObject(move) || Object.keys(move).some((key) => !['name', 'kind', 'sha256'].includes(key))) return `has a move ${quoted(move)} of another shape`;
    const own = typeof move.name === 'string' ? OWN_OUTPUTS.get(move.name) : undefined;
    if (own === undefined) return `names ${quoted(move.name)}, which is not one of this tool's outputs in --out`;
    if (move.kind !== own) return `moves ${quoted(move.name)} as ${move.kind === 'dir' ? 'a folder' : quoted(move.kind)}, which this tool writes as a ${own === 'dir' ? 'folder' : 'file'}`;
    if (typeof move.sha256 !== 'string' || !DIGEST.test(move.sha256)) return `has no digest for ${quoted(move.name)}`;
    if (seen.has(move.name as string)) return `names ${quoted(move.name)} twice`;
    seen.add(move.name as string);
  }
  for (const removal of value.removals as unknown[]) {
    if (typeof removal !== 'string' || !isReportFile(removal)) return `removes ${quoted(removal)}, which is not one of this tool's report files in --out`;
    if (seen.has(removal)) return `names ${quoted(removal)} twice`;
    seen.add(removal);
  }
  return undefined;
}

/**
 * The journal in `root`, if any: read without following a link or opening a pipe, and checked for
 * its shape. `shown` is its path as the user gave `--out`, for the line that refuses it.
 */
export async function readJournal(root: string, shown: string): Promise<CommitJournal | undefined> {
  const path = join(root, JOURNAL);
  const planted = await plantedKind(path);
  if (planted === 'none') return undefined;
  if (planted !== 'file') throw new JournalRefused(shown, `is ${planted}, not a journal`);
  const bytes = await readRegularFile(path, MAX_JOURNAL_BYTES, { followLinks: false }).catch((error: unknown) => {
    throw new JournalRefused(shown, error instanceof NotRegularFileError ? 'is not a regular file' : `cannot be read (${errorCode(error)})`);
  });
  if (bytes instanceof TooLarge) throw new JournalRefused(shown, `is ${bytes.size} bytes, far more than a journal`);
  const text = bytes.toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // A journal is renamed into place whole: a cut or hand-written one is no journal of ours.
    throw new JournalRefused(shown, 'is not JSON');
  }
  const problem = journalShapeProblem(value);
  if (problem !== undefined) throw new JournalRefused(shown, problem);
  return value as CommitJournal;
}

/** Why a move of `kind` onto `target` cannot be made; undefined when it can (a link there is replaced, never followed). */
export async function targetProblem(target: string, kind: StagedKind, shown: string): Promise<string | undefined> {
  const there = await kindAt(target);
  if (kind === 'file' && there === 'dir') return `${shown} is a folder; cannot write the file there`;
  if (kind === 'dir' && there === 'dir' && (await readdir(target)).length > 0 && !(await isOurKit(target))) return `${shown} holds files this tool did not write`;
  return undefined;
}

/**
 * Check a journal against the disk before anything is touched: its staging folder is a real
 * folder holding only what it names, and each move is either still staged with the bytes its
 * digest names, or done (in place with them). Returns the moves still to make.
 */
export async function verifyJournal(root: string, journal: CommitJournal, shown: string): Promise<JournalMove[]> {
  const staging = stagingName(journal.pid, journal.run);
  const refuse = (why: string): never => {
    throw new JournalRefused(shown, why);
  };
  const stagingKind = await plantedKind(join(root, staging));
  if (stagingKind === 'none') refuse(`names the staging folder ${staging}, which is not there`);
  if (stagingKind !== 'a folder') refuse(`names the staging folder ${staging}, which is ${stagingKind}`);
  const staged = new Set(await readdir(join(root, staging)));
  const names = new Set(journal.moves.map((move) => move.name));
  const extra = [...staged].find((entry) => !names.has(entry));
  if (extra !== undefined) refuse(`does not match its staging folder, which holds ${quoted(`${staging}/${extra}`)} it does not name`);
  const pending: JournalMove[] = [];
  for (const move of journal.moves) {
    if (staged.has(move.name)) {
      if ((await diskDigest(join(root, staging, move.name), move.kind)) !== move.sha256) refuse(`does not match what its run staged (${staging}/${move.name} differs)`);
      const problem = await targetProblem(join(root, move.name), move.kind, move.name);
      if (problem !== undefined) refuse(`cannot be finished: ${problem}`);
      pending.push(move);
    } else if ((await diskDigest(join(root, move.name), move.kind)) !== move.sha256) {
      refuse(`does not match the files there (${move.name} is neither staged nor in place as its run wrote it)`);
    }
  }
  return pending;
}
