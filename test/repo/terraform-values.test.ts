import { describe, expect, test } from 'vitest';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { SNAPSHOT_FORMAT } from '../../src/model/snapshot.js';
import { scanRepositories } from '../../src/repo/scan.js';
import { brief, temporaryRepository } from './helpers.js';

const ORG = buildCatalog({
  format: SNAPSHOT_FORMAT,
  organization: { id: 'o', name: 'o' },
  blueprints: [],
  teams: [
    { name: 'Platform Team', identifier: 'platform' },
    { name: 'Payments', identifier: 'payments' },
    { name: 'SRE On-Call', identifier: 'sre_oncall' },
  ],
});

async function scan(files: Record<string, string>) {
  const dir = await temporaryRepository(files, 'tma-tfvars-');
  const result = await scanRepositories([dir], { catalog: ORG });
  const name = dir.split('/').pop()!;
  const findings = brief(result.findings)
    .map((f) => ({ ...f, at: f.at.slice(name.length + 1) }))
    .sort((a, b) => a.at.localeCompare(b.at, 'en', { numeric: true }) || a.category.localeCompare(b.category));
  return { ...result, findings, raw: result.findings };
}

const PERMISSIONS = `resource "port_blueprint_permissions" "svc" {
  blueprint_identifier = "service"
  entities = {
    register   = { teams = var.admin_teams }
    update     = { teams = local.owners }
    unregister = { teams = var.deployers }
    update_properties = { "$team" = { teams = var.viewers } }
  }
}
resource "port_page_permissions" "ops" {
  page_identifier = "ops"
  read = { teams = [var.page_team] }
}
resource "port_entity" "svc" {
  identifier = "svc"
  blueprint  = "service"
  teams      = var.deployers
}
`;

const VARIABLES = `variable "admin_teams" {
  type    = list(string)
  default = ["Platform Team"]
}
variable "deployers" {
  type    = list(string)
  default = ["payments"]
}
variable "viewers" {
  type = list(string)
}
variable "page_team" {
  type    = string
  default = "Payments"
}
locals {
  owners = var.admin_teams
}
`;

describe('Terraform values resolved as Terraform does for what it can see', () => {
  test('defaults, locals over variables, terraform.tfvars over defaults, *.auto.tfvars over both; an unresolvable list names its variable', async () => {
    const { findings } = await scan({
      'infra/main.tf': PERMISSIONS,
      'infra/variables.tf': VARIABLES,
      'infra/terraform.tfvars': 'deployers = ["SRE On-Call", "payments"]\n',
      'infra/zz.auto.tfvars': 'page_team = "SRE On-Call"\n',
      'infra/prod.tfvars': 'viewers = ["Payments"]\n',
    });
    expect(findings).toEqual([
      // var.viewers: only an environment's -var-file sets it, which counts above the (missing) default.
      { at: 'infra/prod.tfvars:1', category: 'team-permission-identifiers', rewrite: 'viewers = ["payments"]', verdict: 'breaks' },
      { at: 'infra/terraform.tfvars:1', category: 'external-ownership', rewrite: 'deployers = ["sre_oncall", "payments"]', verdict: 'breaks' },
      { at: 'infra/terraform.tfvars:1', category: 'team-permission-identifiers', rewrite: 'deployers = ["sre_oncall", "payments"]', verdict: 'breaks' },
      // var.admin_teams directly and through local.owners: one place to change.
      { at: 'infra/variables.tf:3', category: 'team-permission-identifiers', rewrite: 'default = ["platform"]', verdict: 'breaks' },
      { at: 'infra/variables.tf:3', category: 'team-permission-identifiers', rewrite: 'default = ["platform"]', verdict: 'breaks' },
      { at: 'infra/zz.auto.tfvars:1', category: 'team-permission-identifiers', rewrite: 'page_team = "sre_oncall"', verdict: 'breaks' },
    ]);
  });

  test('a team list whose variable nothing sets is a review that says which variable to check', async () => {
    const { findings, raw } = await scan({ 'infra/main.tf': PERMISSIONS, 'infra/variables.tf': VARIABLES.replace('default = "Payments"', '') });
    const open = findings.filter((f) => f.verdict === 'review');
    expect(open).toEqual([
      { at: 'infra/main.tf:7', category: 'team-permission-identifiers', verdict: 'review' },
      { at: 'infra/main.tf:12', category: 'team-permission-identifiers', verdict: 'review' },
    ]);
    const viewers = raw.find((f) => f.location.endsWith('infra/main.tf:7'))!;
    expect(viewers.reason).toContain('var.viewers');
    expect(viewers.suggestion).toContain('var.viewers');
  });

  test('values of another configuration (directory) are not this one', async () => {
    const { findings } = await scan({ 'infra/main.tf': PERMISSIONS, 'other/terraform.tfvars': 'deployers = ["SRE On-Call"]\n', 'other/variables.tf': VARIABLES });
    expect(findings.filter((f) => f.at.startsWith('other/'))).toEqual([]);
  });

  test('a local that refers to itself is left unresolved, never a loop', async () => {
    const { findings } = await scan({ 'infra/main.tf': `locals {\n  a = local.b\n  b = [local.a]\n}\nresource "port_page_permissions" "p" {\n  page_identifier = "p"\n  read = { teams = local.a }\n}\n` });
    expect(findings.map((f) => f.verdict)).toEqual(['review']);
  });

  test('issue 39: a local chosen among values (coalesce, try, concat) is each of them: a title in a fallback breaks, at its line', async () => {
    const { findings } = await scan({
      'infra/main.tf': `variable "team" {
  type    = string
  default = ""
}
variable "teams" {
  type    = list(string)
  default = null
}
locals {
  owner  = coalesce(var.team, "Platform Team")
  owners = try(var.teams, ["Payments"])
  all    = concat(["platform"], ["SRE On-Call"])
  fine   = coalesce(var.team, "platform")
}
resource "port_page_permissions" "a" {
  page_identifier = "a"
  read = { teams = [local.owner] }
}
resource "port_page_permissions" "b" {
  page_identifier = "b"
  read = { teams = local.owners }
}
resource "port_page_permissions" "c" {
  page_identifier = "c"
  read = { teams = local.all }
}
resource "port_page_permissions" "d" {
  page_identifier = "d"
  read = { teams = [local.fine] }
}
`,
    });
    expect(findings).toEqual([
      { at: 'infra/main.tf:10', category: 'team-permission-identifiers', rewrite: 'owner  = coalesce(var.team, "platform")', verdict: 'breaks' },
      { at: 'infra/main.tf:11', category: 'team-permission-identifiers', rewrite: 'owners = try(var.teams, ["payments"])', verdict: 'breaks' },
      { at: 'infra/main.tf:12', category: 'team-permission-identifiers', rewrite: 'all    = concat(["platform"], ["sre_oncall"])', verdict: 'breaks' },
    ]);
  });

  test('issue 39: a team value Terraform computes in a way the scan does not follow is a review, never silence', async () => {
    const { findings, raw } = await scan({
      'infra/main.tf': `variable "team" {
  type = string
}
resource "port_page_permissions" "a" {
  page_identifier = "a"
  read = { teams = [lower(var.team)] }
}
`,
    });
    expect(findings).toEqual([{ at: 'infra/main.tf:6', category: 'team-permission-identifiers', verdict: 'review' }]);
    expect(raw[0]!.reason).toContain('lower(var.team)');
  });
});
