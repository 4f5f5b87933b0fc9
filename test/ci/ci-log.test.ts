import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAILING_LISTED, failingFindingLines, parserErrorLine } from '../../src/cli-text.js';
import type { Report } from '../../src/model/finding.js';
import { runCliCaptured } from '../cli/run-cli.js';
import { finding, reportOf } from '../browser/synthetic-report.js';

const DEMO = 'fixtures/demo-org.json';
const tmp = () => mkdtempSync(join(tmpdir(), 'tma-log-'));
const lines = (text: string) => text.split('\n').filter(Boolean);

describe('the CI log names what failed', () => {
  it('--quiet with a failed gate: one line per failing finding (id, verdict, resource, location, what to write), capped with a count', async () => {
    const out = tmp();
    const run = await runCliCaptured(['analyze', '--snapshot', DEMO, '--out', out, '--fail-on', 'manual', '--quiet']);
    expect(run.code).toBe(1);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
    const failing = report.findings.filter((f) => f.kind === 'manual');
    expect(failing.length).toBeGreaterThan(FAILING_LISTED);
    const printed = lines(run.stderr).filter((line) => line.startsWith('failing: '));
    expect(printed).toHaveLength(FAILING_LISTED + 1);
    expect(printed.at(-1)).toBe(`failing: …and ${failing.length - FAILING_LISTED} more (report.json lists them all)`);
    // Each listed line is one finding of the report, with its verdict, resource and location.
    for (const line of printed.slice(0, -1)) {
      const id = line.split(' ')[1];
      const f = failing.find((candidate) => candidate.id === id);
      expect(f, line).toBeDefined();
      expect(line).toContain(`${f!.verdict ?? 'no verdict'} ${f!.resource.type} ${f!.resource.identifier} ${f!.location}: `);
      if (f!.rewrite !== undefined) expect(line).toContain(`write instead: ${f!.rewrite}`);
    }
    // Breaking items first: no breaking finding is listed after one that does not break.
    const verdicts = printed.slice(0, -1).map((line) => line.split(' ')[2]);
    expect(verdicts.indexOf('review') === -1 || verdicts.lastIndexOf('breaks') < verdicts.indexOf('review')).toBe(true);
    expect(verdicts[0]).toBe('breaks');
    expect(lines(run.stderr).at(-1)).toMatch(/gate FAILED: \d+ findings over --fail-on manual/);
  });

  it('--quiet with a passed gate prints nothing at all', async () => {
    const run = await runCliCaptured(['analyze', '--snapshot', DEMO, '--out', tmp(), '--fail-on', 'none', '--quiet']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
  });

  it('on GitHub Actions a failing repository finding is an annotation on its file and line, workflow-command escaped', () => {
    const report: Report = {
      ...reportOf([
        finding({ category: 'external-ownership', resource: { type: 'file', identifier: 'infra/a,b.tf' }, location: 'infra/a,b.tf:12', verdict: 'breaks', rewrite: 'ownership = { type = "Direct" } 100%' }),
        finding({ category: 'calculation-property', resource: { type: 'blueprint', identifier: 'svc' }, location: 'calculationProperties.x', verdict: 'review' }),
      ]),
      gate: { failOn: 'manual', result: 'failed', failing: 2, accepted: 0 },
    };
    const annotations = failingFindingLines(report, { annotate: true });
    expect(annotations).toHaveLength(2);
    const fileLine = annotations.find((line) => line.includes('external-ownership'));
    const orgLine = annotations.find((line) => line.includes('calculation-property'));
    expect(fileLine).toMatch(/^::error file=infra\/a%2Cb\.tf,line=12,title=teams-migration-audit external-ownership::[0-9a-f]+ breaks infra\/a,b\.tf:12: write instead: ownership = \{ type = "Direct" \} 100%25$/);
    expect(orgLine).toMatch(/^::error title=teams-migration-audit calculation-property::[0-9a-f]+ review blueprint svc calculationProperties\.x: /);
    expect(failingFindingLines(report, { annotate: false }).find((line) => line.includes('.tf'))).toMatch(/^failing: [0-9a-f]+ breaks infra\/a,b\.tf:12: write instead: /);
  });

  it('an incomplete run under --quiet says what was not read, and still names the failing findings', async () => {
    const run = await runCliCaptured(['analyze', '--repo', 'fixtures/repo', '--out', tmp(), '--quiet']);
    expect(run.code).toBe(3);
    expect(lines(run.stderr).some((line) => line.startsWith('not read: '))).toBe(true);
    expect(lines(run.stderr).some((line) => line.startsWith('failing: '))).toBe(true);
    expect(lines(run.stderr).at(-1)).toContain('INCOMPLETE');
  });

  it('writes the step summary whenever GITHUB_STEP_SUMMARY is set, whatever --format says', async () => {
    const summary = join(tmp(), 'summary.md');
    writeFileSync(summary, '');
    const run = await runCliCaptured(['analyze', '--snapshot', DEMO, '--out', tmp(), '--format', 'json', '--fail-on', 'none', '--quiet'], { GITHUB_STEP_SUMMARY: summary });
    expect(run.code).toBe(0);
    expect(readFileSync(summary, 'utf8')).toMatch(/^## Teams migration audit: Acme Payments/);
    // With md asked for it is appended once, not twice.
    writeFileSync(summary, '');
    await runCliCaptured(['analyze', '--snapshot', DEMO, '--out', tmp(), '--format', 'json,md', '--fail-on', 'none', '--quiet'], { GITHUB_STEP_SUMMARY: summary });
    expect(readFileSync(summary, 'utf8').match(/^## Teams migration audit/gm)).toHaveLength(1);
  });

  it('--fail-on breaks, a verdict where a level is asked, says in its one line how to gate on breaking items', async () => {
    for (const verdict of ['breaks', 'review']) {
      const run = await runCliCaptured(['analyze', '--demo', '--quiet', '--fail-on', verdict]);
      expect(run.code).toBe(2);
      expect(lines(run.stderr)).toHaveLength(1);
      expect(run.stderr).toContain(`Allowed choices are none, manual, any; to fail on ${verdict === 'breaks' ? 'breaking' : 'breaking or to-review'} items: --fail-on manual --fail-on-verdict ${verdict} (see --help)`);
    }
    // Any other bad level keeps the plain error.
    expect((await runCliCaptured(['analyze', '--demo', '--fail-on', 'all'])).stderr).not.toContain('--fail-on-verdict');
  });

  it('"Did you mean" stays on the error\'s one line, and --no-color is an option', async () => {
    expect(parserErrorLine("error: unknown option '--snapshto'\n(Did you mean --snapshot?)")).toBe("teams-migration-audit: unknown option '--snapshto' (Did you mean --snapshot?) (see --help)\n");
    const run = await runCliCaptured(['analyze', '--snapshto', DEMO]);
    expect(run.code).toBe(2);
    expect(lines(run.stderr)).toHaveLength(1);
    expect(run.stderr).not.toContain('\\n');
    expect((await runCliCaptured(['analyze', '--snapshot', DEMO, '--out', tmp(), '--fail-on', 'none', '--quiet', '--no-color'])).code).toBe(0);
  });
});
