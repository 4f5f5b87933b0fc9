import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Finding, Report } from '../../src/model/finding.js';
import { loadFixture, readText, run, tempDir, withSandbox } from './harness.js';

const scorecardFindings = (report: Report) =>
  report.findings
    .filter((f: Finding) => f.category === 'scorecard-rule' || f.category === 'mirror-property')
    .map((f) => `${f.category} ${f.resource.type} ${f.resource.identifier} ${f.location} ${f.verdict}`);

describe('scorecards through the sandbox (docs/formats.md, the org snapshot)', () => {
  it('are fetched once with GET /v1/scorecards, written into the snapshot, and found', async () => {
    const fixture = await loadFixture();
    expect(fixture.scorecards?.length).toBeGreaterThan(0);
    await withSandbox({}, async (sandbox, clock) => {
      const env = { PORT_TOKEN: sandbox.token };
      const out = await tempDir();
      const live = await run(['analyze', '--api-url', sandbox.url, '--out', out, '--format', 'json', '--fail-on', 'none', '--quiet'], env, clock);
      expect(live.code).toBe(0);
      expect(sandbox.requests.filter((r) => r.path.includes('scorecard')).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(['GET /v1/scorecards 200']);
      const report = JSON.parse(await readText(join(out, 'report.json'))) as Report;
      expect(scorecardFindings(report)).toEqual([
        'mirror-property blueprint microservice mirrorProperties.service_team.path review',
        'scorecard-rule scorecard beta_app/beta-ownership rules[0].query.conditions[0] breaks',
        'scorecard-rule scorecard microservice/platform-services rules[0].query.conditions[0] breaks',
        'scorecard-rule scorecard service/ownership filter.conditions[0] breaks',
        'scorecard-rule scorecard service/ownership rules[1].query.conditions[0] breaks',
      ]);

      const file = join(out, 'org.json');
      expect((await run(['snapshot', '--out', file, '--api-url', sandbox.url, '--quiet'], env, clock)).code).toBe(0);
      const snapshot = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
      expect(snapshot.scorecards).toEqual(fixture.scorecards);
    });
  });

  it('an org with no scorecards gets an empty list, not a gap', async () => {
    const fixture = await loadFixture();
    delete fixture.scorecards;
    await withSandbox({ snapshot: fixture }, async (sandbox, clock) => {
      const file = join(await tempDir(), 'org.json');
      expect((await run(['snapshot', '--out', file, '--api-url', sandbox.url, '--quiet'], { PORT_TOKEN: sandbox.token }, clock)).code).toBe(0);
      const snapshot = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
      expect(snapshot.scorecards).toEqual([]);
      expect(snapshot.incomplete).toBeUndefined();
    });
  });

  it.each([
    [503, 'GET /v1/scorecards: HTTP 503 after 5 retries'],
    // Decided: a 404 is not read as "this API has no scorecards"; a proxy blocking the route looks the same.
    [404, 'GET /v1/scorecards: HTTP 404: injected HTTP 404'],
  ])('a %i on /v1/scorecards leaves a gap: incomplete, exit 3, in the report and the snapshot', async (status, reason) => {
    await withSandbox({ faults: [{ method: 'GET', path: '/v1/scorecards', status }] }, async (sandbox, clock) => {
      const env = { PORT_TOKEN: sandbox.token };
      const out = await tempDir();
      const result = await run(['analyze', '--api-url', sandbox.url, '--out', out, '--format', 'json', '--concurrency', '1', '--fail-on', 'none'], env, clock);
      expect(result.code).toBe(3);
      const report = JSON.parse(await readText(join(out, 'report.json'))) as Report;
      expect(report.incomplete).toEqual([{ resource: 'scorecards', reason }]);
      expect(report.findings.filter((f) => f.category === 'scorecard-rule')).toEqual([]);
      // Everything else was still read and judged.
      expect(report.findings.some((f) => f.category === 'mirror-property')).toBe(true);

      const file = join(out, 'org.json');
      expect((await run(['snapshot', '--out', file, '--api-url', sandbox.url, '--quiet'], env, clock)).code).toBe(3);
      const snapshot = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
      expect(snapshot.scorecards).toBeUndefined();
      expect(snapshot.incomplete).toEqual([{ resource: 'scorecards', reason }]);
    });
  });
});
