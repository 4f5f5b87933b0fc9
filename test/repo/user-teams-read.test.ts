import { describe, expect, test } from 'vitest';
import { analyzeJsonPayload } from '../../src/repo/api-scripts.js';
import { analyzePulumi } from '../../src/repo/pulumi.js';
import { sourceText } from '../../src/repo/source-text.js';
import { analyzeTerraform } from '../../src/repo/terraform.js';
import { context, judged } from './helpers.js';

/** The docs' way to read the user's teams, `[.user.teams[].name]`, compared with a title: each syntax hands it to the rules. */
const VISIBLE = '[.user.teams[].name] | contains([\\"Platform Team\\"])';
const categories = (findings: readonly { category: string; verdict?: string }[]) => findings.map((f) => `${f.category} ${f.verdict}`);

describe('the user-teams read in actions of every syntax reaches the rules', () => {
  test('JSON', () => {
    const text = `{"identifier": "deploy", "title": "Deploy", "trigger": {"type": "self-service", "operation": "DAY-2", "blueprintIdentifier": "service", "userInputs": {"properties": {"env": {"type": "string", "visible": {"jqQuery": "${VISIBLE}"}}}}}, "invocationMethod": {"type": "WEBHOOK", "url": "https://example.com"}}`;
    expect(categories(judged(analyzeJsonPayload, sourceText('actions/deploy.json', text), context()).findings)).toEqual(['action-user-input breaks']);
  });

  test('Terraform', () => {
    const text = `resource "port_action" "deploy" {
  identifier = "deploy"
  title      = "Deploy"
  self_service_trigger = {
    operation            = "DAY-2"
    blueprint_identifier = "service"
    user_properties = { string_props = { env = { title = "Env", visible_jq_query = "${VISIBLE}" } } }
  }
  webhook_method = { url = "https://example.com" }
}`;
    expect(categories(judged(analyzeTerraform, sourceText('infra/actions.tf', text), context()).findings)).toEqual(['action-user-input breaks']);
  });

  test('Pulumi', () => {
    const text = `import * as port from "@port-labs/port";
new port.Action("deploy", {
  identifier: "deploy",
  title: "Deploy",
  selfServiceTrigger: { operation: "DAY-2", blueprintIdentifier: "service", userProperties: { stringProps: { env: { title: "Env", visibleJqQuery: "${VISIBLE}" } } } },
  webhookMethod: { url: "https://example.com" },
});`;
    expect(categories(judged(analyzePulumi, sourceText('index.ts', text), 'js', context()).findings)).toEqual(['action-user-input breaks']);
  });
});
