import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Finding, Report } from '../../src/model/finding.js';
import { runCliCaptured } from '../cli/run-cli.js';

/**
 * One org before the migration and the same org after it (fixtures/migration-*.json): the
 * migration did its part, the admin fixed some manual items and left three. Goldens pin both
 * reports; regenerate on purpose with UPDATE_GOLDEN=1 and read the diff.
 */
const GOLDEN_BEFORE = 'fixtures/golden/migration-before-report.json';
const GOLDEN_AFTER = 'fixtures/golden/migration-after-report.json';
const SINCE_DATE = new Date('2026-01-01T09:00:00Z');
const work = mkdtempSync(join(tmpdir(), 'tma-migration-'));

async function analyzeTo(name: string, snapshot: string, extra: string[] = []): Promise<{ code: number; stderr: string; json: string; report: Report; md: string }> {
  const out = join(work, name);
  const run = await runCliCaptured(['analyze', snapshot, '--out', out, '--format', 'json,md', '--fail-on', 'manual', ...extra]);
  const json = readFileSync(join(out, 'report.json'), 'utf8');
  return { ...run, json, report: JSON.parse(json) as Report, md: readFileSync(join(out, 'summary.md'), 'utf8') };
}

/** The previous report as an admin keeps it, its org data read on SINCE_DATE (report.run.dataReadAt); copied today. */
function previousReportFile(json: string, name: string): string {
  const path = join(work, name);
  let text = json;
  try {
    text = JSON.stringify({ ...(JSON.parse(json) as object), run: { dataReadAt: SINCE_DATE.toISOString() } });
  } catch (error) {
    // A file that is no JSON stays as it is: the refusal is what is tested.
    if (!(error instanceof SyntaxError)) throw error;
  }
  writeFileSync(path, text);
  return path;
}

const key = (f: Pick<Finding, 'category' | 'resource' | 'location'>) => `${f.category} ${f.resource.identifier} ${f.location}`;
/** Still breaking after the migration: nobody fixed them. */
const BREAKING = [
  'action-user-input deploy_service trigger.userInputs.properties.rollback_reason.visible.jqQuery',
  'calculation-property service calculationProperties.payments_owned.calculation',
  'page-widget repositories widgets[1].blueprintConfig.repository.filterSettings.filterBy.rules[0]',
];
/**
 * Issue 21: values people read that turned from titles into identifiers stay for review before and
 * after the migration; the org's values changing under them fixes nothing.
 */
const FOR_REVIEW = ['calculation-property repository calculationProperties.owner_ids.calculation', 'calculation-property service calculationProperties.owner_list.calculation'];
const UNFIXED = [...BREAKING, ...FOR_REVIEW].sort();
/** Fixed by the admin and now checked fine. */
const NOW_VERIFIED = [
  'calculation-property service calculationProperties.platform_owned.calculation',
  'page-widget service_catalog widgets[0].blueprintConfig.service.filterSettings.filterBy.rules[0]',
  'webhook-mapping opsgenie_alerts mappings[0].entity.team',
];

let before: Awaited<ReturnType<typeof analyzeTo>>;
let after: Awaited<ReturnType<typeof analyzeTo>>;
beforeAll(async () => {
  before = await analyzeTo('before', 'fixtures/migration-before.json');
  after = await analyzeTo('after', 'fixtures/migration-after.json', ['--since', previousReportFile(before.json, 'before-report.json')]);
}, 60_000);

describe('an org before and after the migration (--since)', () => {
  it('matches the golden report of each', () => {
    if (process.env.UPDATE_GOLDEN) {
      writeFileSync(GOLDEN_BEFORE, before.json);
      writeFileSync(GOLDEN_AFTER, after.json);
    }
    expect(before.json).toBe(readFileSync(GOLDEN_BEFORE, 'utf8'));
    expect(after.json).toBe(readFileSync(GOLDEN_AFTER, 'utf8'));
  });

  it('before: the automatic part and every manual item are findings', () => {
    expect(before.code).toBe(1);
    expect(before.report.summary).toMatchObject({ automatic: 4, manual: 11 });
    for (const unfixed of [...UNFIXED, ...NOW_VERIFIED]) expect(before.report.findings.map(key)).toContain(unfixed);
  });

  it('after: the findings are only the unfixed, and verified holds what was fixed', () => {
    expect(after.report.findings.map(key).sort()).toEqual(UNFIXED);
    expect(after.report.summary).toEqual({ automatic: 0, manual: 5, byCategory: { 'action-user-input': 1, 'calculation-property': 3, 'page-widget': 1 } });
    expect((after.report.verified ?? []).map(key).sort()).toEqual(NOW_VERIFIED);
    expect(after.report.verified?.every((f) => f.verdict === 'unaffected')).toBe(true);
    expect(after.code).toBe(1); // three manual items still break, two are for review
  });

  it('counts the progress exactly: 10 of 15 fixed, 5 open, none new', () => {
    const progress = after.report.progress!;
    expect(progress.since).toEqual({ findings: 15, organization: { id: 'org_northwind', name: 'Northwind' }, date: SINCE_DATE.toISOString() });
    expect(progress.fixed).toHaveLength(10);
    expect(progress).toMatchObject({ open: 5, new: 0 });
    const fixed = new Set(progress.fixed.map(key));
    expect(fixed).toEqual(new Set(before.report.findings.map(key).filter((k) => !UNFIXED.includes(k))));
    expect(progress.fixed.filter((f) => f.now === 'verified').map(key).sort()).toEqual(NOW_VERIFIED);
    expect(after.stderr).toContain('progress: 10 of 15 fixed since 2026-01-01; 5 still open, 0 new.');
    expect(after.md).toContain('**Progress:** 10 of 15 fixed since 2026-01-01; 5 still open, 0 new.');
    // SARIF, JUnit and Markdown list problems from findings only: nothing verified appears as one.
    expect(after.md).not.toContain('platform_owned');
  });

  it('--fail-on manual passes once everything is fixed, and progress says all of them', async () => {
    const snapshot = JSON.parse(readFileSync('fixtures/migration-after.json', 'utf8')) as Record<string, any>;
    const service = snapshot.blueprints.find((b: { identifier: string }) => b.identifier === 'service');
    service.calculationProperties.payments_owned.calculation = '.team | contains(["payments"])';
    const deploy = snapshot.actions.find((a: { identifier: string }) => a.identifier === 'deploy_service');
    deploy.trigger.userInputs.properties.rollback_reason.visible.jqQuery = '.user.team | contains(["sre_oncall"])';
    const repositories = snapshot.pages.find((p: { identifier: string }) => p.identifier === 'repositories');
    repositories.widgets[1].blueprintConfig.repository.filterSettings.filterBy.rules[0].value = ['payments'];
    const fixedPath = join(work, 'migration-fixed.json');
    writeFileSync(fixedPath, JSON.stringify(snapshot));

    // What is left is for review (values people read): only breaking items fail this gate.
    const done = await analyzeTo('fixed', fixedPath, ['--since', previousReportFile(after.json, 'after-report.json'), '--fail-on-verdict', 'breaks']);
    expect(done.code).toBe(0);
    expect(done.report.findings.map(key).sort()).toEqual(FOR_REVIEW);
    expect(done.report.progress).toMatchObject({ since: { findings: 5 }, open: 2, new: 0 });
    expect(done.report.progress?.fixed.map(key).sort()).toEqual(BREAKING);
    // Each now does after the migration what it did before it with titles: verified.
    expect(done.report.progress?.fixed.map((f) => f.now)).toEqual(['verified', 'verified', 'verified']);
  });

  it('with the previous report as the plan, finds what the migration left undone once teamInheritance is gone, and counts it open', async () => {
    const snapshot = JSON.parse(readFileSync('fixtures/migration-after.json', 'utf8')) as Record<string, any>;
    const blueprint = (id: string) => snapshot.blueprints.find((b: { identifier: string }) => b.identifier === id);
    blueprint('deployment').ownership = { type: 'Direct' }; // should be Inherited over "service"
    blueprint('repository').relations = { owning_team: { target: '_team', many: true, required: false } }; // should be removed
    snapshot.pages.find((p: { identifier: string }) => p.identifier === 'repositories').widgets[0].excludedFields = ['owning_team'];
    const undonePath = join(work, 'migration-undone.json');
    writeFileSync(undonePath, JSON.stringify(snapshot));
    const LEFT_UNDONE = [
      'ownership-inherited deployment teamInheritance.path',
      'page-widget repositories widgets[0].excludedFields',
      'team-relation-removed repository relations.owning_team',
    ];

    // The org alone no longer tells: teamInheritance is gone, and the relation looks like any other.
    const alone = await analyzeTo('undone-alone', undonePath);
    expect(alone.report.findings.map(key).sort()).toEqual(UNFIXED);

    const planned = await analyzeTo('undone', undonePath, ['--since', previousReportFile(before.json, 'before-report-2.json')]);
    expect(planned.report.findings.map(key).sort()).toEqual([...UNFIXED, ...LEFT_UNDONE].sort());
    const inherited = planned.report.findings.find((f) => f.category === 'ownership-inherited')!;
    expect(inherited.reason).toBe(
      'The migration should have replaced teamInheritance over "service" with ownership {"type":"Inherited","path":"service"}; teamInheritance is gone, but the blueprint has ownership {"type":"Direct"}.',
    );
    const relation = planned.report.findings.find((f) => f.category === 'team-relation-removed')!;
    expect(relation.reason).toContain('the migration did not finish it: relation "owning_team" is still there.');
    // Same ids as in the previous report: these are still open, not fixed.
    expect(planned.report.progress).toMatchObject({ open: 8, new: 0 });
    expect(planned.report.progress!.fixed).toHaveLength(7);
  });

  it('refuses a previous report of another organization, or a file that is no report, with one line (exit 2)', async () => {
    const other = JSON.parse(before.json) as Report;
    other.organization = { id: 'org_other', name: 'Other' };
    for (const [file, message] of [
      [previousReportFile(JSON.stringify(other), 'other-org.json'), /^teams-migration-audit: --since: the previous report is of organization "org_other" \("Other"\), not "org_northwind" \("Northwind"\)/],
      ['fixtures/migration-before.json', /not a teams-migration-audit report.*"format" is "org-snapshot\/1"/],
      [previousReportFile('{"format": "impact-report/1", ', 'truncated.json'), /the previous report \(--since\) is not valid JSON/],
      [join(work, 'missing.json'), /cannot read the previous report \(--since\): no such file/],
    ] as const) {
      const run = await runCliCaptured(['analyze', 'fixtures/migration-after.json', '--out', join(work, 'refused'), '--since', file]);
      expect(run.code, file).toBe(2);
      expect(run.stderr, file).toMatch(message);
      expect(run.stderr.trim().split('\n'), file).toHaveLength(1);
    }
  });
});
