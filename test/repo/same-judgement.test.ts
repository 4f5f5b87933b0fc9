import { readFile } from 'node:fs/promises';
import { afterAll, describe, expect, test } from 'vitest';
import { judgeRule } from '../../src/judge/site-judge.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { loadJqEngine } from '../../src/jq/engine.js';
import type { JsonObject } from '../../src/model/json.js';
import type { FindingDraft } from '../../src/model/finding.js';
import { SNAPSHOT_FORMAT, type OrgSnapshot, type TeamRecord } from '../../src/model/snapshot.js';
import { scanRepositories } from '../../src/repo/scan.js';
import { RULES } from '../../src/rules/index.js';

const jq = await loadJqEngine();
afterAll(async () => jq.close?.());

const teams: TeamRecord[] = [
  { name: 'Platform Team', identifier: 'platform' },
  { name: 'Payments', identifier: 'payments' },
  { name: 'SRE On-Call', identifier: 'sre_oncall' },
];

const readJson = async (path: string) => JSON.parse(await readFile(`fixtures/repo-public/${path}`, 'utf8')) as unknown;

/** fixtures/repo-public/terraform/actions.tf's port_action, written as the API returns it (docs/formats.md, the org snapshot). */
const restart: JsonObject = {
  identifier: 'restart',
  title: 'Restart',
  trigger: {
    type: 'self-service',
    operation: 'DAY-2',
    blueprintIdentifier: 'service',
    userInputs: {
      properties: {
        reason: { title: 'Reason', visible: { jqQuery: '.user.team | index("Payments") != null' } },
        approver: { format: 'entity', blueprint: '_user', dataset: { combinator: 'and', rules: [{ property: '$team', operator: '=', value: 'SRE On-Call' }] } },
      },
    },
  },
  invocationMethod: { type: 'UPSERT_ENTITY', blueprintIdentifier: 'incident', mapping: { identifier: '"restart-" + .run.id', team: '["SRE On-Call"]' } },
};

function org(extra: Partial<OrgSnapshot> = {}): OrgSnapshot {
  return { format: SNAPSHOT_FORMAT, organization: { id: 'org', name: 'org' }, blueprints: [], teams, entities: {}, ...extra };
}

/** `category:verdict` per resource identifier, sorted, so two runs can be compared as sets. */
function judgements(findings: readonly FindingDraft[], identifierOf: (f: FindingDraft) => string | undefined): Record<string, string[]> {
  const byResource: Record<string, string[]> = {};
  for (const finding of findings) {
    const id = identifierOf(finding);
    if (id === undefined) continue;
    (byResource[id] ??= []).push(`${finding.category}:${finding.verdict ?? '-'}`);
  }
  for (const list of Object.values(byResource)) list.sort();
  return byResource;
}

describe('one judgement for the org and for files', () => {
  test('actions and pages give the same categories and verdicts in a repository as in the org', async () => {
    const actions = [...((await readJson('.port/resources/actions.json')) as JsonObject[]), restart];
    const pages = ((await readJson('.port/resources/pages.json')) as { pages: JsonObject[] }).pages;
    const orgCatalog = buildCatalog(org({ actions, pages }), { jq });
    const inOrg = judgements(
      RULES.flatMap((rule) => judgeRule(orgCatalog, rule)),
      (f) => f.resource.identifier,
    );

    const scan = await scanRepositories(['fixtures/repo-public'], { catalog: buildCatalog(org(), { jq }) });
    const inFiles = judgements(scan.findings, (f) => /^(?:action|page) (\S+)$/.exec(f.resource.title ?? '')?.[1]);

    expect(inOrg).toEqual({
      notify_owners: ['action-mapping:review', 'action-user-input:breaks'],
      payments_dashboard: ['page-widget:breaks'],
      restart: ['action-mapping:breaks', 'action-user-input:breaks', 'action-user-input:breaks'],
    });
    expect(inFiles).toEqual(inOrg);
  });

  test('file findings point at the line of the JSON path the rule reported', async () => {
    const scan = await scanRepositories(['fixtures/repo-public'], { catalog: buildCatalog(org(), { jq }) });
    const at = (location: string) => scan.findings.find((f) => f.location === `fixtures/repo-public/${location}`);
    // trigger.userInputs.properties.reviewer.dataset.rules[0] is written on line 17 of actions.json.
    expect(at('.port/resources/actions.json:17')).toMatchObject({ category: 'action-user-input', resource: { type: 'file', title: 'action notify_owners' } });
    // invocationMethod.body.teams, the `{{ .inputs.user.team }}` template.
    expect(at('.port/resources/actions.json:29')?.evidence).toBe('"teams": "{{ .inputs.user.team }}"');
    // A nested dashboard widget's dataset rule, with the rewrite in the file's own text.
    expect(at('.port/resources/pages.json:16')?.rewrite).toBe('{ "property": "$team", "operator": "=", "value": "payments" }');
    // Terraform: visible_jq_query is trigger.userInputs.properties.reason.visible.jqQuery.
    expect(at('terraform/actions.tf:20')?.rewrite).toBe('visible_jq_query = ".user.team | index(\\"payments\\") != null"');
    // upsert_entity_method.mapping.teams is the mapping's team: a list of titles, rewritten in place.
    expect(at('terraform/actions.tf:37')).toMatchObject({ category: 'action-mapping', verdict: 'breaks', rewrite: 'teams      = ["sre_oncall"]' });
  });
});
