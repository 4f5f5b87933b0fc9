import { describe, expect, test } from 'vitest';
import { analyzePulumi } from '../../src/repo/pulumi.js';
import { sourceText } from '../../src/repo/source-text.js';
import { analyzeTerraform } from '../../src/repo/terraform.js';
import { brief, context } from './helpers.js';

describe('what the service rejects on _team and _user', () => {
  test('Terraform: aggregation properties and a redeclared built-in (size) on _team are findings; own properties are not', () => {
    const { findings } = analyzeTerraform(
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

  test('Pulumi: a redeclared email on _user; nothing on a blueprint of your own with the same names', () => {
    const { findings } = analyzePulumi(
      sourceText(
        'index.ts',
        `import * as port from "@port-labs/port";
new port.SystemBlueprint("user", {
  identifier: "_user",
  properties: { stringProps: { email: { title: "Email" }, github: { title: "GitHub" } } },
});
new port.Blueprint("svc", { identifier: "svc", title: "Svc", ownership: { type: "Direct" }, properties: { stringProps: { email: { title: "Email" } } } });
`,
      ),
      'js',
      context(),
    );
    expect(brief(findings)).toEqual([{ at: 'index.ts:4', category: 'external-ownership', verdict: 'breaks' }]);
  });
});
