import { createApiClient, type ApiClientOptions } from '../../src/api/client.js';
import { createFakeClock } from './fake-clock.js';
import { scriptedTransport, type Step } from './fake-transport.js';

/** A client over scripted answers and a fake clock (no real waits). */
export function clientWith(steps: Step[], overrides: Partial<ApiClientOptions> = {}) {
  const clock = createFakeClock();
  const fake = scriptedTransport(steps);
  const client = createApiClient({
    baseUrl: new URL('https://api.example.test'),
    credentials: { kind: 'token', token: 'secret-token' },
    transport: fake.transport,
    now: clock.now,
    sleep: clock.sleep,
    concurrency: 4,
    ...overrides,
  });
  return { client, clock, fake };
}
