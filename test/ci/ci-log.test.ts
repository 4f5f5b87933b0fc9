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
      expect(line).toContain(`${f!.verdict ?? 'needs action'} ${f!.resource.type} ${f!.resource.identifier} ${f!.location}: `);
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

  it('on GitHub Actions: file-located findings first, at most 10 as ::error (what GitHub shows per step), then one ::notice counting the rest and naming the report', () => {
    // 8 org findings first in report order (breaking), then 6 in files (to review), then 6 more org findings.
    const org = (n: number, verdict: 'breaks' | 'review') => finding({ category: 'calculation-property', resource: { type: 'blueprint', identifier: `svc${n}` }, location: 'calculationProperties.x', verdict });
    const file = (n: number) => finding({ category: 'external-ownership', resource: { type: 'file', identifier: `infra/${n}.tf` }, location: `infra/${n}.tf:${n + 1}`, verdict: 'review' });
    const findings = [...[0, 1, 2, 3, 4, 5, 6, 7].map((n) => org(n, 'breaks')), ...[0, 1, 2, 3, 4, 5].map(file), ...[8, 9, 10, 11, 12, 13].map((n) => org(n, 'review'))];
    const report: Report = { ...reportOf(findings), gate: { failOn: 'manual', result: 'failed', failing: findings.length, accepted: 0 } };

    const annotations = failingFindingLines(report, { annotate: true, reportPath: 'audit/report.json' });
    expect(annotations).toHaveLength(11);
    const errors = annotations.slice(0, 10);
    for (const line of errors) expect(line).toMatch(/^::error /);
    // The six file findings lead (they show on the pull request's diff), then what breaks.
    expect(errors.slice(0, 6).every((line) => line.startsWith('::error file=infra/'))).toBe(true);
    expect(errors.slice(6).every((line) => / breaks blueprint svc\d /.test(line))).toBe(true);
    expect(annotations[10]).toBe('::notice title=teams-migration-audit::10 more failing findings are not annotated (GitHub shows 10 error annotations per step): audit/report.json lists them all');

    // Org findings read from a snapshot in the working directory are placed in it, at their resource's line, as in SARIF.
    const placed = failingFindingLines(report, { annotate: true, reportPath: 'audit/report.json', orgPlacement: { uri: 'ci/org.json', lineOf: (f) => Number(f.resource.identifier.slice(3)) + 100 } });
    expect(placed.slice(0, 10).every((line) => line.startsWith('::error file='))).toBe(true);
    // All are placed now, so what breaks comes first.
    expect(placed[0]).toMatch(/^::error file=ci\/org\.json,line=100,title=teams-migration-audit calculation-property::[0-9a-f]+ breaks blueprint svc0 /);

    // Ten or fewer: no notice. Outside GitHub Actions: the plain lines, 20 and a count, as before.
    expect(failingFindingLines({ ...report, findings: findings.slice(0, 10) }, { annotate: true, reportPath: 'r.json' }).filter((line) => line.startsWith('::notice'))).toEqual([]);
    const plain = failingFindingLines(report, { annotate: false });
    expect(plain).toHaveLength(FAILING_LISTED);
    expect(plain.every((line) => line.startsWith('failing: '))).toBe(true);
  });

  it('GITHUB_ACTIONS=true: org findings of a snapshot inside the working directory are annotated at the snapshot\'s line; one outside it gets no file', async () => {
    const out = tmp();
    const inside = await runCliCaptured(['analyze', '--snapshot', DEMO, '--out', out, '--quiet'], { GITHUB_ACTIONS: 'true' });
    expect(inside.code).toBe(1);
    const errors = lines(inside.stderr).filter((line) => line.startsWith('::error '));
    expect(errors).toHaveLength(10);
    const text = readFileSync(DEMO, 'utf8').split('\n');
    for (const line of errors) {
      const [, path, lineNo, identifier] = /^::error file=([^,]+),line=(\d+),title=[^:]+::[0-9a-f]+ \S+ \S+ (\S+) /.exec(line) ?? [];
      expect(path, line).toBe(DEMO);
      expect(text[Number(lineNo) - 1], line).toContain(JSON.stringify(identifier));
    }
    expect(lines(inside.stderr).filter((line) => line.startsWith('::notice '))).toEqual([
      expect.stringMatching(new RegExp(`^::notice title=teams-migration-audit::\\d+ more failing findings are not annotated \\(GitHub shows 10 error annotations per step\\): ${join(out, 'report.json')} lists them all$`)),
    ]);
    expect(lines(inside.stderr).some((line) => line.startsWith('failing: '))).toBe(false);

    const copy = join(tmp(), 'org.json');
    writeFileSync(copy, readFileSync(DEMO));
    const outside = await runCliCaptured(['analyze', '--snapshot', copy, '--out', tmp(), '--quiet'], { GITHUB_ACTIONS: 'true' });
    const outsideErrors = lines(outside.stderr).filter((line) => line.startsWith('::error '));
    expect(outsideErrors).toHaveLength(10);
    expect(outsideErrors.some((line) => line.includes('file='))).toBe(false);
  });

  it('docs/ci.md\'s example log is what the demo prints today: its first failing line, the count of the rest and the verdict line', async () => {
    const run = await runCliCaptured(['analyze', '--demo', '--fail-on', 'manual', '--out', tmp(), '--quiet']);
    expect(run.code).toBe(1);
    const printed = lines(run.stderr).filter((line) => line.startsWith('failing: ') || line.startsWith('Acme Payments: '));
    const docs = readFileSync('docs/ci.md', 'utf8');
    const example = /one line per failing finding[\s\S]*?```\n([\s\S]*?)```/.exec(docs)?.[1];
    const shown = lines(example ?? '');
    // The page shows the first failing line, then the count of those past the listed ones, then the verdict line.
    expect(shown).toEqual([printed[0], ...printed.slice(-2)]);
    const left = printed.filter((line) => line.startsWith('failing: ') && !line.startsWith('failing: …')).length - 1;
    expect(docs).toContain(`${left} of its ${left + 1} \`failing:\` lines left out here`);
  });

  it('the step summary names the artifact the action uploads the reports in, and the run that holds it', async () => {
    const summary = join(tmp(), 'summary.md');
    writeFileSync(summary, '');
    const env = { GITHUB_STEP_SUMMARY: summary, GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'acme/platform', GITHUB_RUN_ID: '42' };
    await runCliCaptured(['analyze', '--demo', '--out', tmp(), '--quiet'], { ...env, TMA_ARTIFACT_NAME: 'audit-`prod`' });
    expect(readFileSync(summary, 'utf8')).toContain("(in the artifact `audit-'prod'` of [this run](https://github.com/acme/platform/actions/runs/42))");
    // Outside the action no artifact is named: only the run.
    writeFileSync(summary, '');
    await runCliCaptured(['analyze', '--demo', '--out', tmp(), '--quiet'], env);
    expect(readFileSync(summary, 'utf8')).toContain('(in the artifacts of [this run](https://github.com/acme/platform/actions/runs/42))');
  });

  it('--help and docs/ci.md say the same: on GitHub Actions the failing lines become annotations (instead), capped at 10 with a notice', async () => {
    const help = (await runCliCaptured(['analyze', '--help'])).stdout;
    const docs = readFileSync('docs/ci.md', 'utf8');
    expect(help).toMatch(/GITHUB_ACTIONS +when "true", what could not be read, then the failing findings, are written as annotations\s+instead of "not read:" and "failing:" lines/);
    expect(help).toContain('at most 10');
    expect(docs).toMatch(/written as annotations\ninstead of `not read:` and `failing:` lines/);
    expect(docs).toContain('at most 10');
    expect(help).not.toMatch(/also written as annotations/);
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

  it('--fail-on review, a verdict where a level is asked, says in its one line how to gate on it', async () => {
    const run = await runCliCaptured(['analyze', '--demo', '--quiet', '--fail-on', 'review']);
    expect(run.code).toBe(2);
    expect(lines(run.stderr)).toHaveLength(1);
    expect(run.stderr).toContain('Allowed choices are none, manual, any, breaks; to fail on breaking or to-review items: --fail-on manual --fail-on-verdict review (see --help)');
    // Any other bad level keeps the plain error.
    expect((await runCliCaptured(['analyze', '--demo', '--fail-on', 'all'])).stderr).not.toContain('--fail-on-verdict');
  });

  it('--fail-on breaks is --fail-on manual --fail-on-verdict breaks (issue 42), and refused in one line beside another verdict', async () => {
    const out = tmp();
    const breaks = await runCliCaptured(['analyze', '--demo', '-q', '--out', out, '--format', 'json', '--fail-on', 'breaks']);
    const written = await runCliCaptured(['analyze', '--demo', '-q', '--out', tmp(), '--format', 'json', '--fail-on', 'manual', '--fail-on-verdict', 'breaks']);
    expect(breaks.code).toBe(1);
    expect(breaks.code).toBe(written.code);
    const gate = (JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { gate: Record<string, unknown> }).gate;
    expect([gate.failOn, gate.failOnVerdict]).toEqual(['manual', 'breaks']);
    // -q is --quiet: only the failing findings' lines and the gate's.
    expect(breaks.stderr).toBe(written.stderr);
    expect(breaks.stderr).not.toMatch(/^wrote /m);
    const clash = await runCliCaptured(['analyze', '--demo', '--fail-on', 'breaks', '--fail-on-verdict', 'review']);
    expect(clash.code).toBe(2);
    expect(clash.stderr).toBe('teams-migration-audit: --fail-on breaks already means --fail-on manual --fail-on-verdict breaks; it cannot go with --fail-on-verdict review\n');
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
