import { createHash } from 'node:crypto';
import { InputError } from '../errors.js';
import { readJsonInput } from '../json-input.js';
import { readJsonObjectInPieces } from '../read-json-in-pieces.js';
import { dropPartPrototypes, isObject, markPrototypeFree, type JsonValue } from '../model/json.js';
import { describeOwnKind, ownDocumentKindOf, OWN_KIND_USE } from '../own-documents.js';
import { SNAPSHOT_FORMAT, type OrgSnapshot } from '../model/snapshot.js';
import { checkSnapshot, type CheckedSnapshot, type CheckOptions } from './validate-snapshot.js';
import { redactSecrets, redactSnapshot, type RedactedAlready } from './redact.js';
import { pruneDeepNesting } from './nesting.js';
import { credentialRedactor } from '../secrets/credentials.js';
import { RedactionTally } from '../secrets/token-shapes.js';
import { checkAndRedactWhileReading, type ReadPassResult } from './snapshot-read-pass.js';

/** How an org snapshot is made, for the lines that refuse another file. */
const RECORD_ONE = 'record an org snapshot with `teams-migration-audit snapshot --out org.json`';

interface LoadOptions extends CheckOptions {
  /**
   * Cut the secrets as the file is read (snapshot-read-pass.ts): the members so redacted are named in
   * `redacted`, for redactSnapshot to keep as they are.
   */
  redact?: boolean;
}

/**
 * Read an org-snapshot/1 file: the snapshot and a note per value of an unexpected shape. A file
 * that is not a snapshot (or, with `strict`, any misfit) is one InputError line naming the file.
 */
export async function loadSnapshotFile(path: string, options: LoadOptions = {}): Promise<CheckedSnapshot & { sha256: string; redacted?: RedactedAlready }> {
  const { document, sha256, textDepth, pass } = await readSnapshotDocument(path, options.redact === true);
  // Our other files are JSON too, and each has its place: say which file it is and where it goes.
  const kind = ownDocumentKindOf(document);
  if (kind !== undefined && kind !== SNAPSHOT_FORMAT) {
    throw new InputError(`${path}: it is ${describeOwnKind(kind)}, not an org snapshot: ${OWN_KIND_USE[kind]}, and ${RECORD_ONE}`);
  }
  const checkOptions: CheckOptions = {
    ...(options.strict !== undefined && { strict: options.strict }),
    ...(textDepth !== undefined && { textDepth }),
    ...(pass !== undefined && { checkedMembers: pass.checkedMembers }),
  };
  let checked: CheckedSnapshot;
  try {
    checked = checkSnapshot(document, path, checkOptions);
  } catch (error) {
    // `--strict`'s one line quotes the first misfit as read, before redaction: it may be a secret.
    if (!(error instanceof InputError) || options.redact !== true) throw error;
    throw new InputError(credentialRedactor(secretsIn(document, pass))(error.message));
  }
  return { ...checked, sha256, ...(pass !== undefined && { redacted: pass.redacted }) };
}

/** Every secret value of a document refused as read (the read pass's, and the rest's): only on the way to an error line. */
function secretsIn(document: unknown, pass: ReadPassResult | undefined): string[] {
  const tally = new RedactionTally();
  if (pass !== undefined) tally.addAll(pass.redacted.tally);
  // Cut to the depth every walk keeps, so redaction's recursion stays bounded.
  const kept = pruneDeepNesting(document).document;
  if (isObject(kept)) redactSnapshot(kept as unknown as OrgSnapshot, undefined, { keys: pass?.redacted.keys ?? new Set(), tally });
  else redactSecrets(kept as JsonValue, false, '', tally);
  return [...tally.secrets];
}

/**
 * The entities' own container and its members made prototype-free, and the whole marked so: the
 * reader built these, and all below them came in batches that lost their prototypes as they were
 * parsed (an empty list or object is made by the reader, without a batch).
 */
function entitiesPrototypeFree(entities: unknown): void {
  if (typeof entities !== 'object' || entities === null) return;
  const members = Array.isArray(entities) ? entities : Object.values(entities);
  if (!Array.isArray(entities)) Object.setPrototypeOf(entities, null);
  for (const member of members) if (isObject(member)) Object.setPrototypeOf(member, null);
  markPrototypeFree(entities);
}

/** Members of a snapshot read in pieces one level further: a blueprint's entities are a list of their own. */
const SPLIT_MEMBERS: ReadonlySet<string> = new Set(['entities']);

/**
 * The snapshot file parsed, its bytes' SHA-256 taken as they are read, and how deep its text
 * nests. Read in pieces (issue 41: never the whole file as one string); a file that cannot be read
 * so (an error, no JSON, no UTF-8, too deep) is read whole, which says what is wrong as it always did.
 */
async function readSnapshotDocument(path: string, redact: boolean): Promise<{ document: unknown; sha256: string; textDepth?: number; pass?: ReadPassResult }> {
  const hash = createHash('sha256');
  // Prototype safety in the reading pass: each batch of entities loses its prototypes as it is parsed,
  // while it is fresh in memory, and the entities are then known to be walked (issue 41).
  let whole = true;
  const onBatch = (_member: string, batch: unknown) => void (whole = dropPartPrototypes(batch, 1) && whole);
  // The check and the secrets in the same pass: every other member's batches, as they are parsed.
  const readPass = redact ? checkAndRedactWhileReading() : undefined;
  const pieces = readJsonObjectInPieces(path, (bytes) => hash.update(bytes), { splitMembers: SPLIT_MEMBERS, onBatch, ...(readPass !== undefined && { onMemberBatch: readPass.onMemberBatch }) });
  const pass = pieces === undefined ? undefined : readPass?.done(pieces.document);
  // A pass that could not stand for the walks (too deep, a key met twice) leaves a copy half redacted: read again whole.
  if (pieces !== undefined && (readPass === undefined || pass !== undefined)) {
    if (whole) entitiesPrototypeFree(pieces.document.entities);
    return { document: pieces.document, sha256: hash.digest('hex'), textDepth: pieces.depth, ...(pass !== undefined && { pass }) };
  }
  let sha256 = '';
  const document = await readJsonInput(path, 'snapshot', {
    htmlHint: ` (index.html is the report this tool writes; ${RECORD_ONE})`,
    onBytes: (bytes) => (sha256 = createHash('sha256').update(bytes).digest('hex')),
  });
  return { document, sha256 };
}

/** Read a file that must fit org-snapshot/1 exactly (fixtures, tests): any misfit is an InputError. */
export async function readSnapshotFile(path: string): Promise<OrgSnapshot> {
  return (await loadSnapshotFile(path, { strict: true })).snapshot;
}
