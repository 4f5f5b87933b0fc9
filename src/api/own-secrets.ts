import { REDACTED } from '../sources/redact.js';

/**
 * The run's own credentials (PORT_TOKEN, the client secret, every exchanged token), cut verbatim
 * from any text the server sends back: gateways that echo the request would otherwise put the
 * bearer token into `incomplete[].reason`, every report file and stderr.
 */
export interface OwnSecrets {
  add(value: string | undefined): void;
  redact(text: string): string;
}

/** Ours: shorter values are not credentials, and cutting them would garble ordinary words. */
const MIN_SECRET_LENGTH = 4;

export function createOwnSecrets(initial: ReadonlyArray<string | undefined>): OwnSecrets {
  const values = new Set<string>();
  const add = (value: string | undefined) => {
    if (value !== undefined && value.length >= MIN_SECRET_LENGTH) values.add(value);
  };
  initial.forEach(add);
  return {
    add,
    redact(text) {
      let result = text;
      // Longest first, so a secret that contains another is cut whole.
      for (const value of [...values].sort((a, b) => b.length - a.length)) result = result.split(value).join(REDACTED);
      return result;
    },
  };
}
