import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/model/finding.js';
import { RULES } from '../../src/rules/index.js';
import { runCliCaptured } from '../cli/run-cli.js';
import { filesIn } from '../support/files-in.js';

/*
 * Issue 32 item 4: identifiers are the service's, and `constructor`, `toString`, `valueOf`,
 * `hasOwnProperty` and `__proto__` are valid ones. The demo org is renamed so that its
 * blueprints, properties, relations, teams (titles and identifiers), actions, pages, webhooks,
 * integrations and scorecards carry the prototype's member names, consistently everywhere they
 * are referred to (jq included). Every rule then runs on it through the CLI: the run gives a
 * report, and the same findings per category as the demo org, since only names changed.
 */
const NAMES = new Map<string, string>([
  // blueprints, and the relations named after them
  ['service', 'constructor'],
  ['domain', 'toString'],
  ['environment', 'valueOf'],
  ['deployment', 'hasOwnProperty'],
  ['incident', '__proto__'],
  ['repository', 'isPrototypeOf'],
  ['cloud_resource', 'propertyIsEnumerable'],
  // properties and relations
  ['tier', 'toLocaleString'],
  ['teamsize', '__defineGetter__'],
  ['language', '__lookupSetter__'],
  ['owning_team', '__defineSetter__'],
  ['responsible_team', '__lookupGetter__'],
  // teams: titles and identifiers, each distinct from the others as in the demo
  ['Platform Team', 'constructor'],
  ['Payments', 'toString'],
  ['SRE On-Call', 'valueOf'],
  ['Data Science', 'hasOwnProperty'],
  ['platform', '__proto__'],
  ['payments', 'isPrototypeOf'],
  ['sre_oncall', 'propertyIsEnumerable'],
  ['data_science', 'toLocaleString'],
  // actions, pages, webhooks, integrations, scorecards
  ['deploy_service', 'constructor'],
  ['register_repository', 'toString'],
  ['restart_pods', 'valueOf'],
  ['provision_cloud_resource', 'hasOwnProperty'],
  ['page_payments_on_sev1', '__proto__'],
  ['service_catalog', 'constructor'],
  ['repositories', 'toString'],
  ['sre_dashboard', '__proto__'],
  ['opsgenie_alerts', 'constructor'],
  ['jira_issues', 'toString'],
  ['argo_deploys', '__proto__'],
  ['github-acme', 'constructor'],
  ['gitlab-platform', 'toString'],
  ['pagerduty-prod', 'valueOf'],
  ['k8s-prod', '__proto__'],
  ['ownership', 'constructor'],
  ['repo_hygiene', '__proto__'],
]);

/** Every name of NAMES, as a whole word (not inside `payments-ledger` or `platform_owned`), renamed in the snapshot's text. */
function renamed(text: string): string {
  const words = [...NAMES.keys()].sort((a, b) => b.length - a.length).map((word) => word.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&'));
  return text.replace(new RegExp(`(?<![A-Za-z0-9_-])(?:${words.join('|')})(?![A-Za-z0-9_-])`, 'g'), (word) => NAMES.get(word)!);
}

const run = async (snapshot: string | undefined, ...more: string[]) => {
  const out = mkdtempSync(join(tmpdir(), 'tma-proto-'));
  const source = snapshot === undefined ? [] : ['--snapshot', snapshot];
  const result = await runCliCaptured(['analyze', ...source, '--out', out, '--fail-on', 'none', '--format', 'json,sarif,junit,md,html', ...more]);
  const report = result.code <= 1 || result.code === 3 ? (JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report) : undefined;
  return { ...result, report };
};

const byCategory = (report: Report) => {
  const counts = new Map<string, number>();
  for (const finding of report.findings) counts.set(`${finding.category} ${finding.kind} ${finding.verdict ?? ''}`, (counts.get(`${finding.category} ${finding.kind} ${finding.verdict ?? ''}`) ?? 0) + 1);
  return Object.fromEntries([...counts].sort(([a], [b]) => (a < b ? -1 : 1)));
};

describe('an org whose names are the members of Object.prototype', () => {
  it('runs every rule and gives a report with the same findings per category as the demo org', async () => {
    const demo = readFileSync('fixtures/demo-org.json', 'utf8');
    const text = renamed(demo);
    for (const name of ['"constructor"', '"toString"', '"valueOf"', '"hasOwnProperty"', '"__proto__"']) expect(text).toContain(name);
    const snapshot = join(mkdtempSync(join(tmpdir(), 'tma-proto-')), 'org.json');
    writeFileSync(snapshot, text);
    const [before, after] = [await run('fixtures/demo-org.json'), await run(snapshot)];
    expect(after.stderr).not.toContain('unexpected error');
    expect(after.code, after.stderr).toBeLessThanOrEqual(1);
    expect(after.report!.findings.length).toBeGreaterThan(0);
    expect(byCategory(after.report!)).toEqual(byCategory(before.report!));
    // Every rule of the registry was run and none failed (a failing rule is an incomplete item).
    expect(after.report!.incomplete).toEqual(before.report!.incomplete);
    expect(RULES.length).toBeGreaterThan(10);
    // And the renamed resources are the ones reported.
    const resources = new Set(after.report!.findings.map((finding) => finding.resource.identifier));
    for (const name of ['constructor', 'toString', '__proto__']) expect(resources, name).toContain(name);
  }, 60_000);

  it('a run whose references name prototype members that are not there gives a report too', async () => {
    // Each lookup misses here: an ordinary object would answer with Object.prototype's member.
    const org = JSON.parse(readFileSync('fixtures/demo-org.json', 'utf8')) as Record<string, any>;
    org.blueprints.push(
      JSON.parse('{"identifier": "constructor", "title": "toString", "schema": {"properties": {"hasOwnProperty": {"type": "string", "format": "team"}}}, "relations": {"valueOf": {"target": "__proto__", "many": false}}, "teamInheritance": {"path": "valueOf"}, "mirrorProperties": {"toString": {"path": "valueOf.$team"}}, "calculationProperties": {"isPrototypeOf": {"calculation": ".properties.constructor + .relations.__proto__", "type": "string"}}}'),
    );
    // The probe's case: a plain blueprint so named, with no entities (was "unexpected error", exit 3).
    for (const name of ['toString', 'valueOf', 'hasOwnProperty']) org.blueprints.push({ identifier: name, title: name, schema: { properties: { tier: { type: 'string' } } }, relations: {} });
    org.actions[0].trigger.blueprintIdentifier = 'isPrototypeOf';
    org.actions[1].identifier = '__proto__';
    org.entities.service[0].team = ['constructor', '__proto__'];
    org.entities.service[1].relations = JSON.parse('{"__proto__": "valueOf", "constructor": ["toString"]}');
    org.pages[0].blueprint = 'hasOwnProperty';
    org.pages[0].widgets[0].blueprint = 'valueOf';
    Object.assign(org.blueprintPermissions, JSON.parse('{"toString": {"entities": {"register": {"teams": ["constructor"]}}}}'));
    Object.assign(org.actionPermissions, JSON.parse('{"valueOf": {"execute": {"teams": ["__proto__"]}}, "__proto__": {"execute": {"teams": ["toString"]}}}'));
    Object.assign(org.pagePermissions, JSON.parse('{"constructor": {"read": {"teams": ["hasOwnProperty"]}}}'));
    org.scorecards[0].blueprint = '__proto__';
    const snapshot = join(mkdtempSync(join(tmpdir(), 'tma-proto-')), 'org.json');
    writeFileSync(snapshot, JSON.stringify(org));
    const result = await run(snapshot);
    expect(result.stderr).not.toContain('unexpected error');
    expect(result.code, result.stderr).toBeLessThanOrEqual(1);
    expect(result.report!.findings.length).toBeGreaterThan(0);
  }, 60_000);

  it('a repository whose Terraform, Pulumi, scripts and port.yml use those names gives the same findings as fixtures/repo', async () => {
    const repo = mkdtempSync(join(tmpdir(), 'tma-proto-repo-'));
    for (const path of (await filesIn('fixtures/repo')).filter((path) => !path.includes('node_modules'))) {
      mkdirSync(dirname(join(repo, path)), { recursive: true });
      const bytes = readFileSync(join('fixtures/repo', path));
      writeFileSync(join(repo, path), bytes.includes(0) ? bytes : renamed(bytes.toString('utf8')));
    }
    const snapshot = join(mkdtempSync(join(tmpdir(), 'tma-proto-')), 'org.json');
    writeFileSync(snapshot, renamed(readFileSync('fixtures/demo-org.json', 'utf8')));
    const [before, after] = [await run('fixtures/demo-org.json', '--repo', 'fixtures/repo'), await run(snapshot, '--repo', repo)];
    expect(after.stderr).not.toContain('unexpected error');
    // fixtures/repo holds a broken port.yml on purpose: both runs are incomplete for it, and only for it.
    expect(after.code, after.stderr).toBe(before.code);
    expect(after.report!.incomplete.length).toBe(before.report!.incomplete.length);
    const inFiles = (report: Report) => ({ ...report, findings: report.findings.filter((finding) => finding.resource.type === 'file') });
    expect(byCategory(inFiles(after.report!))).toEqual(byCategory(inFiles(before.report!)));
    // And with no org: the repository's own catalog.
    const alone = await run(undefined, '--repo', repo);
    expect(alone.stderr).not.toContain('unexpected error');
    expect(alone.report, alone.stderr).toBeDefined();
  }, 60_000);

  it('a repository using prototype member names where the tool looks up its own tables gives a report', async () => {
    // Resource types, Pulumi classes, folder names and rule operators are looked up in the tool's
    // own tables: a name that is a prototype member must find nothing there, not Object's member.
    const repo = mkdtempSync(join(tmpdir(), 'tma-proto-repo-'));
    mkdirSync(join(repo, 'constructor'));
    mkdirSync(join(repo, 'toString', '.port'), { recursive: true });
    writeFileSync(
      join(repo, 'main.tf'),
      ['resource "constructor" "a" {', '  identifier = "x"', '  teams = ["Payments"]', '}', 'resource "port_blueprint" "b" {', '  identifier = "constructor"', '  title = "toString"', '  team_inheritance = { path = "valueOf" }', '}', 'resource "port_system_blueprint" "c" {', '  identifier = "toString"', '}', ''].join('\n'),
    );
    writeFileSync(join(repo, 'index.ts'), 'import * as port from "@port-labs/port";\nnew port.constructor("x", { identifier: "valueOf" });\nnew port.toString("y", { teams: ["Payments"] });\n');
    writeFileSync(join(repo, 'constructor', 'port-app-config.yml'), 'resources:\n  - kind: constructor\n    port:\n      entity:\n        mappings:\n          identifier: .id\n          blueprint: \'"toString"\'\n          team: \'"Payments"\'\n');
    writeFileSync(join(repo, 'toString', '.port', 'blueprints.json'), JSON.stringify([{ identifier: 'hasOwnProperty', title: 'x', ownership: { type: 'Inherited', path: 'constructor' } }]));
    writeFileSync(join(repo, 'page.json'), JSON.stringify({ identifier: 'p', widgets: [{ type: 'table-entities-explorer', dataset: { combinator: 'and', rules: [{ property: '$team', operator: 'constructor', value: ['Payments'] }, { property: '$team', operator: '__proto__', value: 'x' }] } }] }));
    for (const source of [[], ['--snapshot', 'fixtures/demo-org.json']]) {
      const result = await run(source[1], '--repo', repo);
      expect(result.stderr).not.toContain('unexpected error');
      expect(result.report, result.stderr).toBeDefined();
    }
  }, 60_000);
});

