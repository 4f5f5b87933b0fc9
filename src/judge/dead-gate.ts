/**
 * Dead gates (issue 29, beyond the migration): a condition that lets nobody through, or errors
 * for everybody, before the migration and after it (`.user.teams | contains(["X"])` on the
 * `{name, provider}` objects the service gives). It is broken already and the migration does not
 * change it, so it is reported on its own, with the people it shuts out, never as a migration
 * change: a finding of its site's category with verdict `review` and `deadGate` saying so
 * (docs/decision-table.md, "Dead gates").
 */
import { conditionPasses, unknownDataRead } from './user-contexts.js';
import type { Person } from '../catalog/people.js';
import { checkKey, conditionOutcomes } from '../jq/condition-outcomes.js';
import type { JqEngine } from '../jq/engine.js';
import type { JsonValue } from '../model/json.js';
import type { DeadGate } from '../model/finding.js';
import type { MigrationState } from './decision-table.js';

export interface DeadGateWhere {
  /** The org's people, when the snapshot lists them: the gate is run on each of them too. */
  people: readonly Person[];
  /** Admins pass execute and approve whatever the policy says (the service's rule), so they are never shut out there. */
  adminsPass: boolean;
  state: MigrationState;
}

/**
 * Whether the condition is a dead gate: it reads nothing but the user, on every context of both
 * worlds it gives no `true`-like first output (the service reads a condition so: neither false
 * nor null), and on the org's own people it lets nobody through who is not let through anyway.
 * Undefined when some context or person passes, it reads more than the user, or jq gave no answer.
 */
export function deadGate(jq: JqEngine, expression: string, contexts: readonly JsonValue[], where: DeadGateWhere): DeadGate | undefined {
  // A condition that reads the policy's query results, the entity, the form or the run decides on
  // data the contexts only stand in for: that it never passed there says nothing.
  if (unknownDataRead(expression) !== undefined) return undefined;
  const outcome = conditionOutcomes(jq, [{ expression }], contexts).get(checkKey({ expression }));
  if (!outcome?.ok || outcome.outcomes.length === 0 || outcome.outcomes.includes('1')) return undefined;
  const dead: DeadGate = { outcome: /^e+$/.test(outcome.outcomes) ? 'errors-for-everybody' : 'matches-nobody' };
  if (where.people.length === 0) return dead;
  const passes = conditionPasses(jq, expression, where.people, where.state === 'after' ? 'identifiers' : 'titles');
  if (passes === undefined) return undefined;
  // Someone the contexts did not stand for gets through (by email, say): not dead.
  if (where.people.some((person, i) => passes[i] && !(where.adminsPass && person.admin))) return undefined;
  dead.shutOut = where.people.filter((person) => !(where.adminsPass && person.admin)).map((person) => person.email);
  return dead;
}
