import type { JsonObject } from '../../src/model/json.js';

/**
 * A self-service DAY-2 action `deploy` on the `service` blueprint with these user inputs, as an
 * org's actions list holds it (keys in the service's order, so its JSON text is stable too).
 */
export function day2Action(properties: JsonObject): JsonObject {
  return {
    identifier: 'deploy',
    title: 'Deploy',
    trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service', userInputs: { properties } },
    invocationMethod: { type: 'WEBHOOK', url: 'https://example.com' },
  };
}
