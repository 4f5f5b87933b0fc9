import { credentialRedactor } from '../secrets/credentials.js';

/**
 * The run's own credentials (PORT_TOKEN, the client secret, every exchanged token), cut from any
 * text the server sends back, at the source: gateways that echo the request would otherwise put
 * the bearer token into `incomplete[].reason`. The exchanged tokens exist only here, so the final
 * pass over the report (secrets/credentials.ts, whose forms this reuses) cannot know them.
 */
interface OwnSecrets {
  add(value: string | undefined): void;
  redact(text: string): string;
}

export function createOwnSecrets(initial: ReadonlyArray<string | undefined>): OwnSecrets {
  const values: string[] = [];
  let redactor = (text: string) => text;
  const add = (value: string | undefined) => {
    if (value === undefined || values.includes(value)) return;
    values.push(value);
    redactor = credentialRedactor(values);
  };
  initial.forEach(add);
  return { add, redact: (text) => redactor(text) };
}
