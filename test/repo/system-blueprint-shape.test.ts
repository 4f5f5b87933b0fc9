import { describe, expect, test } from 'vitest';
import { analyzePulumi } from '../../src/repo/pulumi.js';
import { sourceText } from '../../src/repo/source-text.js';
import { analyzeTerraform } from '../../src/repo/terraform.js';
import { brief, context, judged } from './helpers.js';

describe('what the service rejects on _team and _user', () => {
  test('Terraform: aggregation properties and a redeclared built-in (size) on _team are findings; own properties are not', () => {
    const { findings } = judged(analyzeTerraform, 
      sourceText(
        'infra/team.tf',
        `resource "port_system_blueprint" "team" {
  identifier = "_team"
  properties = {
    number_props = {
      size = { title = "Size" }
    }
    string_props = {
      slack = { title = "Slack" }
    }
  }
  aggregation_properties = {
    services = { title = "Services", target_blueprint_identifier = "service", method = { count_entities = true } }
  }
}`,
      ),
      context(),
    );
    expect(brief(findings)).toEqual([
      { at: 'infra/team.tf:5', category: 'external-ownership', verdict: 'breaks' },
      { at: 'infra/team.tf:11', category: 'external-ownership', verdict: 'breaks' },
    ]);
  });

  test('Pulumi: a redeclared port_role on _user; email is no built-in (the identifier is the email), so it may be added; nothing on a blueprint of your own', () => {
    const { findings } = judged(analyzePulumi, 
      sourceText(
        'index.ts',
        `import * as port from "@port-labs/port";
new port.SystemBlueprint("user", {
  identifier: "_user",
  properties: { stringProps: { email: { title: "Email" }, github: { title: "GitHub" }, port_role: { title: "Role" } } },
});
new port.Blueprint("svc", { identifier: "svc", title: "Svc", ownership: { type: "Direct" }, properties: { stringProps: { port_role: { title: "Role" } } } });
`,
      ),
      'js',
      context(),
    );
    expect(brief(findings)).toEqual([{ at: 'index.ts:4', category: 'external-ownership', verdict: 'breaks' }]);
    expect(findings[0]!.evidence).toContain('port_role');
  });

  test('the built-ins are the ones the service manages (port-docs manage-users-teams.md; port-cli systemblueprints): status, port_type, moderated_blueprints on _user, description on _team', () => {
    const tf = `resource "port_system_blueprint" "user" {
  identifier = "_user"
  properties = {
    string_props = {
      status     = { title = "Status" }
      port_type  = { title = "Type" }
      slack      = { title = "Slack" }
    }
    array_props = {
      moderated_blueprints = { title = "Moderated" }
    }
  }
}
resource "port_system_blueprint" "team" {
  identifier = "_team"
  properties = { string_props = { description = { title = "About" }, email = { title = "Mailing list" } } }
}
`;
    expect(brief(judged(analyzeTerraform, sourceText('users.tf', tf), context()).findings).map((f) => f.at)).toEqual(['users.tf:5', 'users.tf:6', 'users.tf:10', 'users.tf:16']);
  });
});
