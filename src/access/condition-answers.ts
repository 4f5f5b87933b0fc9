import { checkKey, conditionOutcomes, type ConditionCheck, type ConditionOutcomes } from '../jq/condition-outcomes.js';
import type { JqEngine } from '../jq/engine.js';
import type { JsonValue } from '../model/json.js';
import { USER_CONTEXT } from '../judge/user-contexts.js';
import { fastOutcomes, userContextObject } from './fast-conditions.js';

/**
 * `conditionOutcomes` over compact user contexts, with the checks of a shape fast-conditions.ts
 * claims answered in JavaScript and only the others sent to jq: the same map, by `checkKey`.
 * Only when the engine's answers are jq's own: a stand-in engine is asked everything.
 */
export function userConditionOutcomes(jq: JqEngine, checks: readonly ConditionCheck[], contexts: readonly JsonValue[]): Map<string, ConditionOutcomes> {
  const fast = jq.answersAsJq ? fastOutcomes(checks, contexts.map(userContextObject)) : new Map<ConditionCheck, string>();
  const left = checks.filter((check) => !fast.has(check));
  const results = left.length > 0 ? conditionOutcomes(jq, left, contexts, USER_CONTEXT) : new Map<string, ConditionOutcomes>();
  for (const [check, outcomes] of fast) results.set(checkKey(check), { ok: true, outcomes });
  return results;
}
