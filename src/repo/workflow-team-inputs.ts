import { posix } from 'node:path';
import { isObject, type JsonObject } from '../model/json.js';

/**
 * Which inputs of a GitHub workflow carry a team value: those a service action that dispatches the
 * workflow (`invocationMethod.type` GITHUB, its `workflow` file name) fills from a user input of
 * format `team` (or a list of them) or from the entity's `$team`. A workflow input is a string to
 * GitHub whatever it holds, so only the dispatching action tells a team from free text.
 */
export type WorkflowTeamInputs = ReadonlyMap<string, ReadonlySet<string>>;

/** Workflow file name → the names of its inputs that the actions dispatching it fill with teams. */
export function workflowTeamInputs(actions: Iterable<JsonObject>): WorkflowTeamInputs {
  const byWorkflow = new Map<string, Set<string>>();
  for (const action of actions) {
    const method = isObject(action.invocationMethod) ? action.invocationMethod : undefined;
    if (method?.type !== 'GITHUB' || typeof method.workflow !== 'string') continue;
    const teamInputs = teamUserInputs(action);
    const names = byWorkflow.get(method.workflow) ?? new Set<string>();
    byWorkflow.set(method.workflow, names);
    if (isObject(method.workflowInputs)) {
      for (const [name, template] of Object.entries(method.workflowInputs)) if (typeof template === 'string' && fillsWithTeam(template, teamInputs)) names.add(name);
    } else {
      // Without workflowInputs the action's user inputs are the workflow's, name for name.
      for (const name of teamInputs) names.add(name);
    }
  }
  return byWorkflow;
}

/** The action's user inputs whose values are teams. */
function teamUserInputs(action: JsonObject): Set<string> {
  const trigger = isObject(action.trigger) ? action.trigger : action;
  const userInputs = isObject(trigger.userInputs) ? trigger.userInputs : undefined;
  const properties = userInputs && isObject(userInputs.properties) ? userInputs.properties : {};
  const names = new Set<string>();
  for (const [name, input] of Object.entries(properties)) {
    if (!isObject(input)) continue;
    const items = isObject(input.items) ? input.items : undefined;
    if (input.format === 'team' || items?.format === 'team') names.add(name);
  }
  return names;
}

/** A template that is one team input or the entity's team, as it is (`{{ .inputs.team }}`, `{{ .entity.team }}`). */
function fillsWithTeam(template: string, teamInputs: ReadonlySet<string>): boolean {
  const read = /^\s*\{\{\s*\.(inputs|entity)\s*\.\s*(?:"([^"]+)"|([A-Za-z_][\w-]*))\s*\}\}\s*$/.exec(template);
  if (!read) return false;
  const name = read[2] ?? read[3]!;
  return read[1] === 'entity' ? name === 'team' : teamInputs.has(name);
}

/** The workflow input a `${{ inputs.x }}` or `${{ github.event.inputs.x }}` value passes on as it is, if it is one. */
export function passedInput(value: string): string | undefined {
  return /^\s*\$\{\{\s*(?:github\.event\.)?inputs\.([\w-]+)\s*\}\}\s*$/.exec(value)?.[1];
}

/** Whether the input of the workflow at `path` is one a dispatching action fills with a team value. */
export function isTeamInput(inputs: WorkflowTeamInputs | undefined, path: string, input: string): boolean {
  return inputs?.get(posix.basename(path))?.has(input) ?? false;
}
