import { describe, expect, test } from 'vitest';
import { sourceText } from '../../src/repo/source-text.js';
import { analyzeTerraform } from '../../src/repo/terraform.js';
import { neededWith, providerAdvice } from '../../src/repo/provider-version.js';
import { brief, context, judged } from './helpers.js';

const run = (text: string, ctx = context()) => judged(analyzeTerraform, sourceText('infra/main.tf', text), ctx);

describe('analyzeTerraform', () => {
  test('team_inheritance becomes Inherited ownership; a commented-out one is not code', () => {
    const { findings } = run(`# resource "port_blueprint" "old" { team_inheritance = { path = "x" } }
resource "port_blueprint" "service" {
  identifier = "service"
  /* team_inheritance = { path = "y" } */
  team_inheritance = {
    path = "domain"
  }
}
`);
    expect(brief(findings)).toEqual([
      { at: 'infra/main.tf:5', category: 'external-ownership', rewrite: 'ownership = { type = "Inherited", path = "domain" }', verdict: 'breaks' },
    ]);
    expect(findings[0]!.evidence).toBe('team_inheritance = {\n    path = "domain"\n  }');
    expect(findings[0]!.resource).toEqual({ type: 'file', identifier: 'infra/main.tf', title: 'blueprint service' });
  });

  test('quoted keys with ":" are read like bare keys with "="', () => {
    const { findings } = run(`resource "port_blueprint" "svc" {
  "identifier" : "svc",
  "team_inheritance" : { "path" : "domain" }
}`);
    expect(brief(findings)).toEqual([
      { at: 'infra/main.tf:3', category: 'external-ownership', rewrite: '"ownership" : { type = "Inherited", path = "domain" }', verdict: 'breaks' },
    ]);
  });

  test('a port_blueprint managing _team must become an imported port_system_blueprint', () => {
    const { findings } = run(`resource "port_blueprint" "team" {
  identifier = "_team"
  title      = "Team"
}`);
    expect(brief(findings)).toEqual([
      { at: 'infra/main.tf:1', category: 'external-ownership', rewrite: 'resource "port_system_blueprint" "team" {', verdict: 'breaks' },
    ]);
    expect(findings[0]!.suggestion).toContain('terraform import port_system_blueprint.team _team');
  });

  test('a blueprint the org gives Direct ownership gets ownership = { type = "Direct" }, found by identifier', () => {
    const text = `resource "port_blueprint" "svc" {
  identifier = "microservice"
}
resource "port_blueprint" "done" {
  identifier = "microservice"
  ownership  = { type = "Direct" }
}`;
    expect(brief(run(text, context({ directOwnership: new Set(['microservice']) })).findings)).toEqual([
      { at: 'infra/main.tf:1', category: 'external-ownership', rewrite: 'ownership = { type = "Direct" }', verdict: 'breaks' },
    ]);
    expect(run(text).findings).toEqual([]);
  });

  test('team titles and port_team.X.name in permissions become identifiers; identifiers are left alone', () => {
    const { findings } = run(`resource "port_blueprint_permissions" "svc" {
  blueprint_identifier = "service"
  entities = {
    "register" = {
      "teams" : ["Platform Team", "payments", port_team.sre.name]
      "ownedByTeam" : false
    }
    "update" = { teams = ["payments", "sre_oncall"] }
    update_metadata_properties = {
      team = { teams = ["Data Science"] }
    }
  }
}
resource "port_page_permissions" "home" {
  read = { teams = ["SRE On-Call"] }
}`);
    expect(brief(findings)).toEqual([
      {
        at: 'infra/main.tf:5',
        category: 'team-permission-identifiers',
        rewrite: '"teams" : ["platform", "payments", port_team.sre.identifier]',
        verdict: 'breaks',
      },
      { at: 'infra/main.tf:10', category: 'team-permission-identifiers', verdict: 'breaks' },
      { at: 'infra/main.tf:15', category: 'team-permission-identifiers', rewrite: 'teams = ["sre_oncall"]', verdict: 'breaks' },
    ]);
    expect(findings[1]!.suggestion).toContain('the identifier of "Data Science" is not known yet');
  });

  test('port_entity teams are ownership kept outside the service', () => {
    const { findings } = run(`resource "port_entity" "checkout" {
  identifier = "checkout"
  blueprint  = "service"
  teams      = [port_team.payments.name]
  properties = { string_props = { team = "Payments" } }
}`);
    expect(brief(findings)).toEqual([
      { at: 'infra/main.tf:4', category: 'external-ownership', rewrite: 'teams      = [port_team.payments.identifier]', verdict: 'breaks' },
    ]);
  });

  test('mappings in webhooks, actions and jsonencode(...) configs, and $team rules in pages', () => {
    const { findings } = run(`resource "port_webhook" "gh" {
  mappings = [{
    blueprint = "service"
    entity = {
      identifier = ".body.id"
      team       = "\\"Payments\\""
    }
  }]
}
resource "port_action" "create" {
  upsert_entity_method = {
    mapping = {
      teams    = ["Platform Team"]
    }
  }
}
resource "port_action" "create_jq" {
  upsert_entity_method = { mapping = { teams_jq = "[.user.team]" } }
}
resource "port_integration" "gh" {
  config = jsonencode({
    resources = [{ kind = "repository", port = { entity = { mappings = [{ identifier = ".name", team = ".team.title" }] } } }]
  })
}
resource "port_page" "ops" {
  widgets = [jsonencode({ dataset = { rules = [{ property = "$team", operator = "=", value = "SRE On-Call" }] } })]
}`);
    expect(brief(findings)).toEqual([
      { at: 'infra/main.tf:6', category: 'webhook-mapping', rewrite: 'team       = "\\"payments\\""', verdict: 'breaks' },
      { at: 'infra/main.tf:13', category: 'action-mapping', rewrite: 'teams    = ["platform"]', verdict: 'breaks' },
      { at: 'infra/main.tf:18', category: 'action-mapping', verdict: 'review' },
      { at: 'infra/main.tf:22', category: 'integration-mapping', verdict: 'review' },
      { at: 'infra/main.tf:26', category: 'page-widget', rewrite: '{ property = "$team", operator = "=", value = "sre_oncall" }', verdict: 'breaks' },
    ]);
  });

  test("an integration's team expression reads the source payload, not the team meta property", () => {
    const { findings } = run(`resource "port_integration" "gh" {
  config = jsonencode({
    resources = [{ kind = "repository", port = { entity = { mappings = [{ identifier = ".name", team = ".team.title" }] } } }]
  })
}`);
    expect(findings).toHaveLength(1);
    expect(findings[0]!.reason).not.toContain('reads the team meta property');
    expect(findings[0]!.reason).toContain('sets the team meta property');
  });

  test('a heredoc holding JSON is read where it stands', () => {
    const { findings } = run(`resource "port_integration" "ocean" {
  config = <<EOF
{
  "resources": [
    {"kind": "service", "port": {"entity": {"mappings": {"identifier": ".id", "team": "\\"Data Science\\""}}}}
  ],
  "note": "team: Payments"
}
EOF
}`);
    expect(brief(findings)).toEqual([{ at: 'infra/main.tf:5', category: 'integration-mapping', verdict: 'breaks' }]);
    expect(findings[0]!.evidence).toBe('"team": "\\"Data Science\\""');
  });

  test('a heredoc holding YAML counts lines from the heredoc', () => {
    const { findings } = run(`resource "port_integration" "ocean" {
  config = <<-YAML
    resources:
      - kind: service
        port:
          entity:
            mappings:
              identifier: .id
              team: '"Platform Team"'
  YAML
}`);
    expect(brief(findings)).toEqual([
      { at: 'infra/main.tf:9', category: 'integration-mapping', rewrite: `team: '"platform"'`, verdict: 'breaks' },
    ]);
  });

  test('calculation properties that read .team are calculation-property findings; other calculations are not', () => {
    const { findings } = run(`resource "port_blueprint" "incident" {
  identifier = "incident"
  calculation_properties = {
    platform_owned = { type = "boolean", calculation = ".team | index(\\"Platform Team\\") != null" }
    owners = {
      type        = "array"
      calculation = ".team"
    }
    link = { type = "string", calculation = "\\"https://status.example.com/\\" + .identifier" }
    on_call = { type = "boolean", calculation = ".team | index(\\"sre_oncall\\") != null" }
  }
  properties = { string_props = { calculation = { title = ".team | index(\\"Payments\\")" } } }
}
resource "port_action" "deploy" {
  calculation_properties = { x = { calculation = ".team | index(\\"Payments\\")" } }
}`);
    expect(brief(findings)).toEqual([
      { at: 'infra/main.tf:4', category: 'calculation-property', rewrite: 'calculation = ".team | index(\\"platform\\") != null"', verdict: 'breaks' },
      { at: 'infra/main.tf:7', category: 'calculation-property', verdict: 'review' },
      { at: 'infra/main.tf:10', category: 'calculation-property', verdict: 'unaffected' },
    ]);
    expect(findings[0]!.resource).toEqual({ type: 'file', identifier: 'infra/main.tf', title: 'blueprint incident' });
    expect(findings[0]!.evidence).toBe('calculation = ".team | index(\\"Platform Team\\") != null"');
    expect(findings[0]!.reason).toContain('uses team title "Platform Team"');
  });

  test('jq conditions of a dynamic permission policy are action-dynamic-permission findings, one per condition', () => {
    const { findings } = run(`resource "port_action_permissions" "restart" {
  action_identifier = "restart"
  permissions = {
    execute = {
      policy = jsonencode({
        queries = { oncall = { combinator = "and", rules = [{ property = "$team", operator = "in", value = ["sre_oncall"] }] } }
        conditions = [
          ".results.oncall.entities | map(.team) | index(\\"SRE On-Call\\")",
          ".results.oncall.entities | length > 0",
          ".user.team | contains([\\"Data Science\\"])",
        ]
      })
    }
    approve = {
      policy = <<EOF
{"queries": {}, "conditions": [".results.x.entities[].team | contains([\\"Payments\\"])"]}
EOF
    }
  }
}
resource "port_action" "deploy" {
  self_service_trigger = { conditions = [".team | index(\\"Payments\\")"] }
}`);
    expect(brief(findings)).toEqual([
      // Issue 21: an identifier before the migration matches nobody today, and starts matching afterwards.
      { at: 'infra/main.tf:6', category: 'action-dynamic-permission', verdict: 'breaks' },
      {
        at: 'infra/main.tf:8',
        category: 'action-dynamic-permission',
        rewrite: '".results.oncall.entities | map(.team) | index(\\"sre_oncall\\")"',
        verdict: 'breaks',
      },
      { at: 'infra/main.tf:10', category: 'action-dynamic-permission', verdict: 'breaks' },
      { at: 'infra/main.tf:16', category: 'action-dynamic-permission', rewrite: '".results.x.entities[].team | contains([\\"payments\\"])"', verdict: 'breaks' },
    ]);
    expect(findings[1]!.evidence).toBe('".results.oncall.entities | map(.team) | index(\\"SRE On-Call\\")"');
    expect(findings[1]!.resource.title).toBe('action-permissions restart');
    expect(findings[2]!.suggestion).toContain('the identifier of "Data Science" is not known yet');
  });

  test('a provider constraint is never a finding: it is a fact of the configuration, advice comes from providerAdvice', () => {
    const provider = (version: string) => `terraform {
  required_providers {
    port = {
      source  = "port-labs/port-labs"
      version = "${version}"
    }
  }
}`;
    const analysis = run(provider('~> 2.1.0'));
    expect(analysis.findings).toEqual([]);
    expect(analysis.provider?.constraint).toEqual({ text: '~> 2.1.0', at: 'infra/main.tf:5' });
    // Another provider with the same local name is not the service's.
    expect(run(provider('~> 2.1.0').replace('port-labs/port-labs', 'example/port-labs-fork')).provider?.constraint).toBeUndefined();
  });

  test('provider advice: one review line per configuration, only where it manages what the migration touches, with the floor that matters', () => {
    const needsSystem = run(`resource "port_blueprint" "team" {\n  identifier = "_team"\n  title = "Team"\n}`).provider!;
    expect(needsSystem.needs.map((n) => n.floor.join('.'))).toEqual(['2.2.0']);
    const constraint = (text: string) => ({ constraint: { text, at: 'infra/versions.tf:5' }, needs: [] });
    // Nothing the migration touches: no advice, whatever the constraint.
    const plain = run('resource "port_blueprint" "svc" {\n  identifier = "svc"\n}').provider!;
    expect(providerAdvice('infra', [constraint('~> 1.0'), neededWith(plain, new Set())])).toBeUndefined();
    // The same blueprint whose entities the migration gives Direct ownership needs the provider's ownership support.
    expect(providerAdvice('infra', [constraint('~> 1.0'), neededWith(plain, new Set(['svc']))])).toContain('≥ 2.1.4 for ownership on port_blueprint');
    for (const allowed of ['~> 2', '~> 2.1', '>= 2.0.0', '>= 1.0, < 3.0.0', '2.5.0']) expect(providerAdvice('infra', [constraint(allowed), needsSystem])).toBeUndefined();
    for (const excluded of ['~> 1.0', '= 2.1.8', '>= 1.0, < 2.2.0', '<= 2.1.9', '~> 2.1.0']) {
      const advice = providerAdvice('infra', [constraint(excluded), needsSystem]);
      expect(advice).toMatch(/^review: Terraform configuration infra\/: the provider constraint/);
      expect(advice).toContain('≥ 2.2.0 for port_system_blueprint for _team (infra/main.tf:1)');
      expect(advice).not.toMatch(/breaks/);
    }
    // port_team.identifier needs 2.5.0, importing blueprint permissions 2.15.1: the highest excluded floor is the one to allow.
    const teams = run(`resource "port_blueprint_permissions" "svc" {
  blueprint_identifier = "svc"
  entities = { register = { teams = [port_team.platform.name] } }
}`).provider!;
    const advice = providerAdvice('infra', [constraint('~> 2.3.0'), teams])!;
    expect(advice).toContain('≥ 2.5.0 for port_team.<name>.identifier');
    expect(advice).toContain('≥ 2.15.1 for importing port_blueprint_permissions');
    expect(advice).toContain('Allow 2.15.1 or later');
  });

  test('a 0.x configuration gets one upgrade advice when it holds team content, none when it does not, and never a finding', () => {
    const legacy = run(`terraform {
  required_providers {
    port-labs = {
      source  = "port-labs/port-labs"
      version = "~> 0.10"
    }
  }
}
resource "port-labs_entity" "checkout" {
  identifier = "checkout"
  team       = "Platform Team"
}`);
    expect(legacy.findings).toEqual([]);
    expect(providerAdvice('infra', [legacy.provider!])).toContain('0.x provider');
    const noTeams = run(`resource "port-labs_blueprint" "svc" {\n  identifier = "svc"\n  title = "Service"\n}`);
    expect(noTeams.findings).toEqual([]);
    expect(providerAdvice('infra', [noTeams.provider!])).toBeUndefined();
  });

  test('resources of other providers and prose in strings produce nothing', () => {
    const { findings } = run(`resource "github_team" "platform" {
  name        = "Platform Team"
  description = "team_inheritance = { path = \\"x\\" } teams = [\\"Platform Team\\"]"
}
resource "port_blueprint" "svc" {
  identifier  = "svc"
  description = "Inherits teams from the domain (team_inheritance)"
}`);
    expect(findings).toEqual([]);
  });

  test('an unterminated heredoc is a syntax error with its line', () => {
    expect(() => run('resource "port_integration" "x" {\n  config = <<EOF\n{"a": 1}\n')).toThrow(/unterminated heredoc/);
  });
});

describe('values that set no team', () => {
  test('an empty team (`teams = [""]`, `team = ""`) is no finding', () => {
    const { findings } = run(`resource "port_entity" "svc" {
  identifier = "svc"
  blueprint  = "service"
  teams      = [""]
}
resource "port_action" "create" {
  identifier = "create"
  title      = "Create"
  self_service_trigger = { operation = "CREATE", blueprint_identifier = "service" }
  upsert_entity_method = { blueprint_identifier = "service", mapping = { identifier = "x", teams = [""] } }
}`);
    expect(findings).toEqual([]);
  });
});
