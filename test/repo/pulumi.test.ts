import { describe, expect, test } from 'vitest';
import { analyzePulumi, isPulumiProgram } from '../../src/repo/pulumi.js';
import { sourceText } from '../../src/repo/source-text.js';
import { brief, context, judged } from './helpers.js';

describe('analyzePulumi: calculation properties and policy conditions', () => {
  test('TypeScript and Python, with negatives', () => {
    const ts = `import * as port from "@port-labs/port";
new port.Blueprint("incident", {
  identifier: "incident",
  calculationProperties: {
    payments: { type: "boolean", calculation: '.team | index("Payments") != null' },
    age: { type: "number", calculation: "now - (.createdAt | fromdateiso8601)" },
  },
});
new port.ActionPermissions("refund", {
  actionIdentifier: "refund",
  permissions: { execute: { policy: JSON.stringify({ conditions: [".results.q.entities | map(.team) | index(\\"SRE On-Call\\")", ".results.q.entities | length > 0"] }) } },
});
`;
    expect(brief(judged(analyzePulumi, sourceText('stack/index.ts', ts), 'js', context()).findings)).toEqual([
      { at: 'stack/index.ts:5', category: 'calculation-property', rewrite: `calculation: '.team | index("payments") != null'`, verdict: 'breaks' },
      { at: 'stack/index.ts:11', category: 'action-dynamic-permission', rewrite: '".results.q.entities | map(.team) | index(\\"sre_oncall\\")"', verdict: 'breaks' },
    ]);
    const py = `import json
import port_pulumi as port
port.Blueprint(
    "incident",
    identifier="incident",
    calculation_properties={
        "sre": port.BlueprintCalculationPropertiesArgs(type="boolean", calculation='.team | index("SRE On-Call") != null'),
        "age": port.BlueprintCalculationPropertiesArgs(type="number", calculation="now - (.createdAt | fromdateiso8601)"),
    },
)
port.ActionPermissions("refund", action_identifier="refund", permissions={"execute": {"policy": json.dumps({"conditions": ['.results.q.entities[].team | contains(["Payments"])']})}})
`;
    expect(brief(judged(analyzePulumi, sourceText('stack/__main__.py', py), 'python', context()).findings)).toEqual([
      { at: 'stack/__main__.py:7', category: 'calculation-property', rewrite: `calculation='.team | index("sre_oncall") != null'`, verdict: 'breaks' },
      { at: 'stack/__main__.py:11', category: 'action-dynamic-permission', rewrite: `'.results.q.entities[].team | contains(["payments"])'`, verdict: 'breaks' },
    ]);
  });
});

describe('analyzePulumi (TypeScript)', () => {
  const program = `import * as port from "@port-labs/port";

// new port.Blueprint("old", { identifier: "old", teamInheritance: { path: "x" } });
export const service = new port.Blueprint("service", {
  identifier: "service",
  title: "Service",
  teamInheritance: { path: "domain" },
});
export const team = new port.Blueprint("team", { identifier: "_team", title: "Team" });
export const svc = new port.Blueprint("svc", { identifier: "microservice" });
new port.PagePermissions("home", { pageIdentifier: "home", read: { teams: ["Platform Team", "sre_oncall"] } });
new port.Entity("checkout", { identifier: "checkout", blueprint: "service", teams: ["Payments"], relations: { singleRelations: { team: "Platform Team" } } });
`;
  test('teamInheritance, _team blueprints, Direct ownership, permission and entity teams', () => {
    expect(isPulumiProgram(program)).toBe(true);
    const { findings } = judged(analyzePulumi, sourceText('stack/index.ts', program), 'js', context({ directOwnership: new Set(['microservice']) }));
    expect(brief(findings)).toEqual([
      { at: 'stack/index.ts:7', category: 'external-ownership', rewrite: 'ownership: { type: "Inherited", path: "domain" }', verdict: 'breaks' },
      { at: 'stack/index.ts:9', category: 'external-ownership', rewrite: 'port.SystemBlueprint', verdict: 'breaks' },
      { at: 'stack/index.ts:10', category: 'external-ownership', rewrite: 'ownership: { type: "Direct" }', verdict: 'breaks' },
      { at: 'stack/index.ts:11', category: 'team-permission-identifiers', rewrite: 'teams: ["platform", "sre_oncall"]', verdict: 'breaks' },
      { at: 'stack/index.ts:12', category: 'external-ownership', rewrite: 'teams: ["payments"]', verdict: 'breaks' },
    ]);
    expect(findings.map((f) => f.resource.title)).toEqual(['blueprint service', 'Blueprint team', 'blueprint microservice', 'page-permissions home', 'Entity checkout']);
  });
});

describe('analyzePulumi (Python)', () => {
  test('keyword arguments, Args classes and dict arguments', () => {
    const program = `import port_pulumi as port

# port.Blueprint("old", identifier="old", team_inheritance=port.BlueprintTeamInheritanceArgs(path="x"))
service = port.Blueprint(
    "service",
    identifier="service",
    team_inheritance=port.BlueprintTeamInheritanceArgs(path="domain"),
)
users = port.Blueprint("users", identifier="_user")
port.ActionPermissions("deploy", action_identifier="deploy", permissions={"execute": {"teams": ["SRE On-Call"], "owned_by_team": True}})
port.PagePermissions("home", page_identifier="home", read={"teams": ["payments"]})
`;
    const { findings } = judged(analyzePulumi, sourceText('py/__main__.py', program), 'python', context());
    expect(brief(findings)).toEqual([
      {
        at: 'py/__main__.py:7',
        category: 'external-ownership',
        rewrite: 'ownership=port.BlueprintOwnershipArgs(type="Inherited", path="domain")',
        verdict: 'breaks',
      },
      { at: 'py/__main__.py:9', category: 'external-ownership', rewrite: 'port.SystemBlueprint', verdict: 'breaks' },
      { at: 'py/__main__.py:10', category: 'team-permission-identifiers', rewrite: '"teams": ["sre_oncall"]', verdict: 'breaks' },
    ]);
  });

  test('a program without the Port SDK is not a Pulumi program', () => {
    expect(isPulumiProgram('import pulumi_aws as aws\nteams = ["Platform Team"]\n')).toBe(false);
  });
});

describe('analyzePulumi: actions are judged as the org judges them', () => {
  test('a TypeScript port.Action: user input jq and the UPSERT team mapping, at their lines', () => {
    const program = `import * as port from "@port-labs/port";

new port.Action("restart", {
  identifier: "restart",
  selfServiceTrigger: {
    operation: "DAY-2",
    blueprintIdentifier: "service",
    userProperties: {
      stringProps: {
        reason: { visibleJqQuery: '.user.team | index("Payments") != null' },
      },
    },
  },
  upsertEntityMethod: {
    blueprintIdentifier: "incident",
    mapping: { identifier: ".run.id", teamsJq: '"Platform Team"' },
  },
});
`;
    const { findings } = judged(analyzePulumi, sourceText('stack/index.ts', program), 'js', context());
    expect(brief(findings)).toEqual([
      { at: 'stack/index.ts:10', category: 'action-user-input', rewrite: `visibleJqQuery: '.user.team | index("payments") != null'`, verdict: 'breaks' },
      { at: 'stack/index.ts:16', category: 'action-mapping', rewrite: `teamsJq: '"platform"'`, verdict: 'breaks' },
    ]);
    expect(findings.map((f) => f.resource.title)).toEqual(['action restart', 'action restart']);
  });

  test('a Python port.Action with Args classes: snake_case keywords are the API keys', () => {
    const program = `import port_pulumi as port

port.Action(
    "restart",
    identifier="restart",
    self_service_trigger=port.ActionSelfServiceTriggerArgs(
        operation="DAY-2",
        blueprint_identifier="service",
        user_properties=port.ActionSelfServiceTriggerUserPropertiesArgs(
            string_props={
                "reason": port.ActionSelfServiceTriggerUserPropertiesStringPropsArgs(
                    visible_jq_query='.user.team | index("Payments") != null',
                ),
            },
        ),
    ),
    webhook_method=port.ActionWebhookMethodArgs(url="https://x", body='{"team": "{{ .trigger.by.user.team }}"}'),
)
`;
    const { findings } = judged(analyzePulumi, sourceText('py/__main__.py', program), 'python', context());
    expect(brief(findings).filter((f) => f.category === 'action-user-input')).toEqual([
      { at: 'py/__main__.py:12', category: 'action-user-input', rewrite: `visible_jq_query='.user.team | index("payments") != null'`, verdict: 'breaks' },
    ]);
    // The webhook body is JSON in a string: its template is read as the org reads invocationMethod.body.
    expect(findings.some((f) => f.category === 'action-mapping' && f.location === 'py/__main__.py:17')).toBe(true);
  });
});
