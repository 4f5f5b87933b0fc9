/**
 * The org's people as conditions see them, each distinct context once: what access and the
 * dead-gate check (src/judge/dead-gate.ts) run conditions on. Kept apart from compute-access so
 * the judge can ask without importing the permission walk.
 */
import type { Person } from '../catalog/people.js';
import { checkKey, conditionOutcomes } from '../jq/condition-outcomes.js';
import type { JqEngine } from '../jq/engine.js';
import { compactUser, USER_MODEL_JQ } from './user-model.js';
import { own, type JsonValue } from '../model/json.js';
import { extractReferences } from '../jq/references.js';
import { userFieldsRead } from './user-reads.js';

/** Team values as they are before the migration (titles) and after it, if nothing is changed (identifiers). */
export type TeamForm = 'titles' | 'identifiers';

/** Whether a check's context carries the email and the roles: only where its paths may read them (user-reads.ts). */
export interface ContextReads {
  email: boolean;
  roles: boolean;
}

export function contextReads(expression: string): ContextReads {
  const reads = userFieldsRead(expression);
  return reads.kind === 'everything' ? { email: true, roles: true } : { email: reads.fields.has('email'), roles: reads.fields.has('roles') };
}

/**
 * The user as a condition or an input's jqQuery sees them, sent compactly as `[team values, email,
 * roles, names]` and unfolded by `USER_CONTEXT` inside jq into the one user model of each world.
 * Email and roles are sent only where an expression's paths may read them (`contextReads`);
 * otherwise users with the same teams are one context.
 */
export function userContext(user: Person, form: TeamForm, reads: ContextReads): JsonValue {
  return compactUser(form === 'titles' ? user.names : user.identifiers, user.names, reads.email ? user.email : null, reads.roles ? user.roles : null);
}

/** The one user model of each world (src/judge/user-model.ts), unfolded inside jq from `userContext`. */
export const USER_CONTEXT = USER_MODEL_JQ;

/**
 * Each user's context per form, kept once however many users share it: `contexts` is what jq
 * runs on, `slots[form][user]` the index of that user's context in it.
 */
export function distinctUserContexts(users: readonly Person[], forms: readonly TeamForm[], reads: ContextReads): { contexts: JsonValue[]; slots: Int32Array[] } {
  const contexts: JsonValue[] = [];
  const slotOf = new Map<string, number>();
  const slots = forms.map((form) =>
    Int32Array.from(users, (user) => {
      const context = userContext(user, form, reads);
      const id = JSON.stringify(context);
      let slot = slotOf.get(id);
      if (slot === undefined) {
        slotOf.set(id, (slot = contexts.length));
        contexts.push(context);
      }
      return slot;
    }),
  );
  return { contexts, slots };
}

/**
 * For each person, whether one condition lets them through in one world (one jq request over the
 * distinct contexts), or undefined when jq gave no answer.
 */
export function conditionPasses(jq: JqEngine, expression: string, people: readonly Person[], form: TeamForm): Uint8Array | undefined {
  const { contexts, slots } = distinctUserContexts(people, [form], contextReads(expression));
  const outcome = conditionOutcomes(jq, [{ expression }], contexts, USER_CONTEXT).get(checkKey({ expression }));
  if (!outcome?.ok) return undefined;
  return Uint8Array.from(people, (_, i) => (outcome.outcomes[slots[0]![i]!] === '1' ? 1 : 0));
}

/**
 * Context keys the service fills at run time from data this tool does not have: a condition that
 * reads one gives an answer per entity or per form, not per user, so it is not guessed.
 */
const UNKNOWN_DATA: Readonly<Record<string, string>> = {
  results: "the entities the policy's queries find",
  entity: 'the entity the action runs on',
  form: 'what the user fills into the form',
  inputs: 'what the user fills into the form',
  trigger: 'the run that triggered it',
  diff: 'the entity change that triggered it',
  event: 'the event that triggered it',
  run: 'the action run',
};

/** Why an expression's answer depends on data the tool does not have, or undefined when it reads only the user. */
export function unknownDataRead(expression: string): string | undefined {
  const result = extractReferences(expression);
  if (!result.ok) return `this tool could not read its jq (${result.error.message}), so what it depends on is unknown`;
  for (const path of result.references.paths) {
    const [first, second, third] = path.segments;
    if (path.variable !== undefined || first === undefined) continue;
    // The run's user is the user (`trigger.by.user` in a run, `trigger.user` in a policy's context).
    if (first === 'trigger' && ((second === 'by' && third === 'user') || second === 'user')) continue;
    const what = own(UNKNOWN_DATA, first);
    if (what !== undefined) return `it reads .${first} (${what}), which this tool does not have, so who it lets through depends on data and is not guessed`;
  }
  return undefined;
}

