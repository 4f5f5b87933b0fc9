import { describe, expect, it } from 'vitest';
import { assertReadOnly, ReadOnlyViolation } from '../../src/api/read-only.js';

const base = new URL('https://api.getport.io');
const check = (method: string, path: string) => () => assertReadOnly(method, new URL(path, base), base);

describe('read-only guard', () => {
  it.each([
    ['GET', '/v1/blueprints'],
    ['GET', '/v1/actions?version=v2'],
    ['GET', '/v1/scorecards'],
    ['POST', '/v1/auth/access_token'],
    ['POST', '/v1/blueprints/service/entities/search'],
    ['POST', '/v1/blueprints/weird%20id%2Fslash/entities/search'],
  ])('lets %s %s through', (method, path) => {
    expect(check(method, path)).not.toThrow();
  });

  it.each([
    ['POST', '/v1/blueprints'],
    // The search across blueprints is not sent: it has no paging, so its answer is unbounded.
    ['POST', '/v1/entities/search'],
    ['POST', '/v1/blueprints/service/entities'],
    ['POST', '/v1/blueprints/service/entities/bulk'],
    ['POST', '/v1/blueprints/service/bulk/entities/delete'],
    ['POST', '/v1/blueprints/system/users-and-teams-as-blueprints'],
    ['POST', '/v1/blueprints/service/entities/search/../bulk'],
    ['PATCH', '/v1/blueprints/service/entities/e1'],
    ['PUT', '/v1/blueprints/service'],
    ['DELETE', '/v1/blueprints/service/entities/e1'],
  ])('refuses %s %s before it leaves the process', (method, path) => {
    expect(check(method, path)).toThrow(ReadOnlyViolation);
  });

  it('refuses any other host, so the bearer token only goes to the base URL', () => {
    expect(() => assertReadOnly('GET', new URL('https://evil.example/v1/blueprints'), base)).toThrow(/only https:\/\/api.getport.io/);
  });
});
