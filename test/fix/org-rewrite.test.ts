import { describe, expect, it } from 'vitest';
import { applyOrgRewrite, locateOrgTarget } from '../../src/fix/org-rewrite.js';
import { fileName } from '../../src/fix/kit-names.js';
import { resourceBodies } from '../../src/fix/resource-bodies.js';
import type { JqEngine } from '../../src/jq/engine.js';
import type { JsonObject } from '../../src/model/json.js';
import type { Finding } from '../../src/model/finding.js';
import { SNAPSHOT_FORMAT, type OrgSnapshot } from '../../src/model/snapshot.js';

/** jq that rejects every expression containing `BROKEN`: the kit must not write such a rewrite. */
const fakeJq: JqEngine = {
  validate: (expression) => (expression.includes('BROKEN') ? { ok: false, error: 'syntax error' } : { ok: true }),
  evaluate: () => ({ ok: false, error: 'not used' }),
};

function finding(fields: Partial<Finding> & Pick<Finding, 'category' | 'location' | 'resource'>): Finding {
  return { id: `${fields.resource.identifier}:${fields.location}`, kind: 'manual', evidence: '', reason: '', suggestion: '', verdict: 'breaks', ...fields };
}

const org = (): OrgSnapshot => ({
  format: SNAPSHOT_FORMAT,
  organization: { id: 'o', name: 'O' },
  blueprints: [{ identifier: 'service', title: 'Service', calculationProperties: { owned: { title: 'Owned', type: 'boolean', calculation: '.team | index("Platform Team") != null' } } }],
  actions: [
    {
      identifier: 'register',
      title: 'Register',
      trigger: { type: 'self-service', operation: 'CREATE', blueprintIdentifier: 'repository', userInputs: { properties: {} } },
      invocationMethod: { type: 'UPSERT_ENTITY', blueprintIdentifier: 'repository', mapping: { identifier: '{{ .inputs.name }}', relations: { owning_team: '{{ [.inputs.team.identifier] }}' } } },
    },
  ],
  actionPermissions: { register: { execute: { roles: [], users: [], teams: [], policy: { queries: {}, conditions: ['.user.team | index("Payments")'] } } } },
});

describe('applyOrgRewrite', () => {
  it('puts a checked jq rewrite in place and keeps the rest of the resource as it was', () => {
    const snapshot = org();
    const f = finding({ category: 'calculation-property', resource: { type: 'blueprint', identifier: 'service' }, location: 'calculationProperties.owned.calculation', rewrite: '.team | index("platform") != null' });
    const { files, unresolved } = resourceBodies(snapshot, [f], fakeJq);
    expect(unresolved).toEqual([]);
    expect(files.map((file) => [file.path, file.findings])).toEqual([['org/blueprint/service.json', [f.id]]]);
    const body = JSON.parse(files[0]!.content) as JsonObject;
    expect(body).toEqual({ ...snapshot.blueprints[0], calculationProperties: { owned: { title: 'Owned', type: 'boolean', calculation: '.team | index("platform") != null' } } });
    // The snapshot itself is never changed.
    expect(snapshot.blueprints[0]!.calculationProperties).toEqual(org().blueprints[0]!.calculationProperties);
  });

  it('refuses a rewrite jq does not compile: no file, and the finding says so', () => {
    const f = finding({ category: 'calculation-property', resource: { type: 'blueprint', identifier: 'service' }, location: 'calculationProperties.owned.calculation', rewrite: '.team | BROKEN' });
    const { files, unresolved } = resourceBodies(org(), [f], fakeJq);
    expect(files).toEqual([]);
    expect(unresolved).toEqual([{ id: f.id, missing: 'a rewrite that compiles: jq rejects ".team | BROKEN" (syntax error)' }]);
  });

  it('moves a write to a removed team relation to the mapping\'s team', () => {
    const snapshot = org();
    const f = finding({ category: 'action-mapping', resource: { type: 'action', identifier: 'register' }, location: 'invocationMethod.mapping.relations.owning_team', rewrite: '{"team":"{{ [.inputs.team.identifier] }}"}' });
    const target = locateOrgTarget(snapshot, f)!;
    expect(applyOrgRewrite(target.record, target.path, f, fakeJq)).toEqual({ applied: true });
    expect((snapshot.actions![0]!.invocationMethod as JsonObject).mapping).toEqual({ identifier: '{{ .inputs.name }}', team: '{{ [.inputs.team.identifier] }}' });
  });

  it('moves a list written to a removed team relation to the mapping\'s team, and keeps the other relations', () => {
    const snapshot = org();
    const mapping = (snapshot.actions![0]!.invocationMethod as JsonObject).mapping as JsonObject;
    mapping.relations = { owning_team: ['{{ .inputs.owner }}'], service: [] };
    const f = finding({ category: 'action-mapping', resource: { type: 'action', identifier: 'register' }, location: 'invocationMethod.mapping.relations.owning_team', rewrite: '{"team":["{{ .inputs.owner }}"]}' });
    const target = locateOrgTarget(snapshot, f)!;
    expect(applyOrgRewrite(target.record, target.path, f, fakeJq)).toEqual({ applied: true });
    expect(mapping).toEqual({ identifier: '{{ .inputs.name }}', team: ['{{ .inputs.owner }}'], relations: { service: [] } });
  });

  it('does not move a list to team when an item of it is jq that does not compile', () => {
    const snapshot = org();
    const mapping = (snapshot.actions![0]!.invocationMethod as JsonObject).mapping as JsonObject;
    mapping.relations = { owning_team: ['{{ .inputs.owner }}'] };
    const f = finding({ category: 'action-mapping', resource: { type: 'action', identifier: 'register' }, location: 'invocationMethod.mapping.relations.owning_team', rewrite: '{"team":["{{ .inputs.owner | BROKEN }}"]}' });
    const target = locateOrgTarget(snapshot, f)!;
    expect(applyOrgRewrite(target.record, target.path, f, fakeJq)).toMatchObject({ applied: false, missing: expect.stringMatching(/jq rejects/) });
    expect(mapping).toEqual({ identifier: '{{ .inputs.name }}', relations: { owning_team: ['{{ .inputs.owner }}'] } });
  });

  it('a literal team name in a mapping is replaced by the identifier as a literal, not checked as jq', () => {
    const snapshot = org();
    const mapping = (snapshot.actions![0]!.invocationMethod as JsonObject).mapping as JsonObject;
    mapping.team = 'SRE On-Call';
    // jq rejects a bare identifier (an undefined function), as the real engine does.
    const strictJq: JqEngine = { ...fakeJq, validate: (expression) => (/^[a-z_]+$/.test(expression) ? { ok: false, error: 'sre_oncall/0 is not defined' } : { ok: true }) };
    const f = finding({ category: 'action-mapping', resource: { type: 'action', identifier: 'register' }, location: 'invocationMethod.mapping.team', rewrite: 'sre_oncall' });
    const target = locateOrgTarget(snapshot, f)!;
    expect(applyOrgRewrite(target.record, target.path, f, strictJq)).toEqual({ applied: true });
    expect(mapping.team).toBe('sre_oncall');
    // Bare jq in the same field is still checked.
    const broken = finding({ ...f, rewrite: '.inputs | BROKEN' });
    mapping.team = 'SRE On-Call';
    expect(applyOrgRewrite(target.record, target.path, broken, fakeJq)).toMatchObject({ applied: false });
  });

  it('writes permission fixes to <resource>.permissions.json', () => {
    const f = finding({ category: 'action-dynamic-permission', resource: { type: 'action', identifier: 'register' }, location: 'permissions.execute.policy.conditions[0]', rewrite: '.user.team | index("payments")' });
    const { files } = resourceBodies(org(), [f], fakeJq);
    expect(files[0]!.path).toBe('org/action/register.permissions.json');
    expect((JSON.parse(files[0]!.content) as { execute: { policy: { conditions: string[] } } }).execute.policy.conditions).toEqual(['.user.team | index("payments")']);
  });

  it('a breaking finding with no rewrite is unresolved; a review-only resource gets no file', () => {
    const breaks = finding({ category: 'calculation-property', resource: { type: 'blueprint', identifier: 'service' }, location: 'calculationProperties.owned.calculation', suggestion: 'the identifier of "X" is not known yet: pass --teams-map' });
    expect(resourceBodies(org(), [breaks], fakeJq).unresolved[0]!.missing).toMatch(/--teams-map/);
    const review = { ...breaks, verdict: 'review' as const, rewrite: '.team' };
    expect(resourceBodies(org(), [review], fakeJq).files).toEqual([]);
  });

  it('names files safely', () => {
    expect([fileName('service'), fileName('a/b'), fileName('..'), fileName('x y')]).toEqual(['service', 'a_b', '_..', 'x_y']);
  });

  it('gives resources whose safe names clash distinct, stable file names; one without a clash keeps its plain name', () => {
    const snapshot: OrgSnapshot = {
      ...org(),
      blueprints: [{ identifier: 'k8s_cluster' }, { identifier: 'k8s' }, { identifier: 'deploy/svc' }, { identifier: 'deploy_svc' }, { identifier: 'service' }],
      scorecards: [
        { blueprint: 'k8s_cluster', identifier: 'health', rules: [] },
        { blueprint: 'k8s', identifier: 'cluster_health', rules: [] },
      ],
    };
    const at = (type: 'blueprint' | 'scorecard', identifier: string) => locateOrgTarget(snapshot, finding({ category: 'scorecard-rule', resource: { type, identifier }, location: 'rules[0]' }))!.file;
    const files = [at('scorecard', 'k8s_cluster/health'), at('scorecard', 'k8s/cluster_health'), at('blueprint', 'deploy/svc'), at('blueprint', 'deploy_svc')];
    expect(new Set(files).size).toBe(4);
    for (const file of files) expect(file).toMatch(/^org\/(scorecard\/k8s_cluster_health|blueprint\/deploy_svc)-[0-9a-f]{8}\.json$/);
    // The same org gives the same names; a resource with no clash keeps its plain name.
    expect(at('scorecard', 'k8s_cluster/health')).toBe(files[0]);
    expect(at('blueprint', 'service')).toBe('org/blueprint/service.json');
  });
});

describe('fix kit README', () => {
  it('warns before pasting a body whose secrets were cut when the org was read', async () => {
    const { buildFixKit } = await import('../../src/fix/build-fix-kit.js');
    const { buildCatalog } = await import('../../src/catalog/build-catalog.js');
    const { analyze } = await import('../../src/analyze.js');
    const snapshot = org();
    snapshot.blueprints[0]!.calculationProperties = { owned: { title: 'Owned', type: 'boolean', calculation: '.team | index("Platform Team") != null' } };
    snapshot.teams = [{ name: 'Platform Team', identifier: 'platform' }];
    snapshot.blueprints[0]!.webhookSecret = '<redacted>';
    const catalog = buildCatalog(snapshot);
    const kit = buildFixKit({ catalog, report: analyze(catalog) });
    expect(kit.files.map((f) => f.path)).toContain('org/blueprint/service.json');
    const readme = kit.files.find((f) => f.path === 'README.md')!.content;
    expect(readme).toContain('## Before you paste: secrets were cut');
    expect(readme).toContain('- `org/blueprint/service.json`');
  });
});

describe('corrected bodies are the resources as they will be after the migration', () => {
  it('repository (beta inheritance over a _team relation) comes without teamInheritance and the relation, with Direct ownership and its calculation fixed', async () => {
    const { buildFixKit } = await import('../../src/fix/build-fix-kit.js');
    const { buildCatalog } = await import('../../src/catalog/build-catalog.js');
    const { analyze } = await import('../../src/analyze.js');
    const { readSnapshotFile } = await import('../../src/sources/snapshot-file.js');
    const catalog = buildCatalog(await readSnapshotFile('fixtures/demo-org.json'));
    const kit = buildFixKit({ catalog, report: analyze(catalog) });
    const body = JSON.parse(kit.files.find((f) => f.path === 'org/blueprint/repository.json')!.content) as JsonObject;
    expect(body.teamInheritance).toBeUndefined();
    expect(body.relations).toEqual({});
    expect(body.ownership).toEqual({ type: 'Direct' });
    expect((body.calculationProperties as Record<string, { calculation: string }>).owner_ids!.calculation).toBe('.team | join(",")');
    const permissions = JSON.parse(kit.files.find((f) => f.path === 'org/action/deploy_service.permissions.json')!.content) as { execute: { teams: string[] } };
    expect(permissions.execute.teams).toEqual(['platform', 'sre_oncall']);
  });
});
