import { markPrototypeFree, type JsonValue } from '../model/json.js';
import type { Batch } from '../read-json-in-pieces.js';
import { RedactionTally } from '../secrets/token-shapes.js';
import { MAX_NESTING_DEPTH } from './nesting.js';
import { isKeptAsRead, redactSecrets, type RedactedAlready } from './redact.js';
import { memberCheck, type MemberCheck, type MemberFindings } from './validate-snapshot.js';

/** One container of a top-level member, checked and redacted batch by batch as it is read. */
interface MemberPass {
  check: MemberCheck;
  container?: Batch;
  tally: RedactionTally;
}

/** What the pass did: members checked and redacted, for checkSnapshot and redactSnapshot to take as done. */
export interface ReadPassResult {
  checkedMembers: ReadonlyMap<string, MemberFindings>;
  redacted: RedactedAlready;
}

/**
 * The snapshot file's check and secrets in the pass that reads it (issue 41: at a million entities,
 * redaction was a walk of its own over every resource but the entities, after the check's own
 * walk). Each batch of a top-level member is checked as checkSnapshot would check it there, then
 * redacted as redactSnapshot would redact it, while it is fresh in memory; the document is built
 * of the redacted copies. The members done so are named in `done`; the rest (the entities, the
 * organization, an empty list) are left to checkSnapshot and redactSnapshot.
 *
 * `done` is undefined when the pass could not stand for the whole walks: a batch read past
 * MAX_NESTING_DEPTH (checkSnapshot cuts what is too deep before it checks, and redaction is
 * recursive), or a key met twice in one member across batches (JSON.parse keeps the last in the
 * first one's place, and only its value counts). The caller then reads the file as before.
 */
export function checkAndRedactWhileReading(): {
  onMemberBatch: (member: string, batch: Batch, first: boolean, depthSoFar: number) => Batch;
  done: (document: Readonly<Record<string, unknown>>) => ReadPassResult | undefined;
} {
  const members = new Map<string, MemberPass>();
  let abandoned = false;
  const onMemberBatch = (member: string, batch: Batch, first: boolean, depthSoFar: number): Batch => {
    if (abandoned || isKeptAsRead(member)) return batch;
    if (depthSoFar > MAX_NESTING_DEPTH) {
      abandoned = true;
      return batch;
    }
    if (first) {
      const check = memberCheck(member);
      if (check === undefined) {
        members.delete(member);
        return batch;
      }
      members.set(member, { check, tally: new RedactionTally() });
    }
    const pass = members.get(member);
    if (pass === undefined) return batch;
    if (!Array.isArray(batch) && pass.container !== undefined && Object.keys(batch).some((key) => Object.hasOwn(pass.container!, key))) {
      abandoned = true;
      return batch;
    }
    pass.check.add(batch, first);
    // In place: the batch is fresh from JSON.parse and nothing else holds it (a copy of each doubled what the pass allocated).
    const redacted = redactSecrets(batch as JsonValue[] | Record<string, JsonValue>, false, '', pass.tally, true) as Batch;
    if (first) pass.container = redacted;
    return redacted;
  };
  const done = (document: Readonly<Record<string, unknown>>): ReadPassResult | undefined => {
    if (abandoned) return undefined;
    const checkedMembers = new Map<string, MemberFindings>();
    const keys = new Set<string>();
    const tally = new RedactionTally();
    for (const [member, pass] of members) {
      // A later key of the same name replaced this container (JSON.parse keeps the last): its value is walked as before.
      if (pass.container === undefined || document[member] !== pass.container) continue;
      checkedMembers.set(member, pass.check.found);
      keys.add(member);
      // Made of keyed records and arrays, as redactSnapshot's copy is: no walk to drop prototypes.
      markPrototypeFree(pass.container);
      tally.addAll(pass.tally);
    }
    return { checkedMembers, redacted: { keys, tally } };
  };
  return { onMemberBatch, done };
}
