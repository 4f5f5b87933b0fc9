import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { loadJqEngine } from '../../src/jq/engine.js';
import { SNAPSHOT_FORMAT } from '../../src/model/snapshot.js';
import { analyzePulumi } from '../../src/repo/pulumi.js';
import { scanRepositories } from '../../src/repo/scan.js';
import { sourceText } from '../../src/repo/source-text.js';
import { analyzeTerraform } from '../../src/repo/terraform.js';
import { brief, context, judged } from './helpers.js';

const jq = await loadJqEngine();
afterAll(async () => jq.close?.());

const catalog = buildCatalog(
  { format: SNAPSHOT_FORMAT, organization: { id: 'org', name: 'org' }, blueprints: [], teams: [{ name: 'Platform', identifier: 'platform' }], entities: {} },
  { jq },
);

/** A service whose inheritance goes over a direct relation to _team, and an action writing that relation and a title. */
const FILE = `{
  "blueprints": [
    {"identifier": "service", "title": "Service",
     "relations": {"owning_team": {"target": "_team", "many": true, "required": false}},
     "teamInheritance": {"path": "owning_team"}}
  ],
  "actions": [
    {"identifier": "reassign", "title": "Reassign",
     "trigger": {"type": "self-service", "operation": "DAY-2", "blueprintIdentifier": "service", "userInputs": {"properties": {}}},
     "invocationMethod": {"type": "UPSERT_ENTITY", "blueprintIdentifier": "service",
       "mapping": {"identifier": "{{ .entity.identifier }}",
                   "team": "[\\"Platform\\"]",
                   "relations": {"owning_team": "{{ .entity.relations.owning_team }}"}}}}
  ]
}
`;

describe('rewrites placed in the file text', () => {
  test('an object rewrite (the value moves to another key) is shown as the rule wrote it, never spliced into the string', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tma-rewrite-'));
    await mkdir(join(dir, 'port'));
    await writeFile(join(dir, 'port/resources.json'), FILE);
    const scan = await scanRepositories([dir], { catalog });
    const at = (line: number) => scan.findings.find((f) => f.location.endsWith(`port/resources.json:${line}`));

    const relation = at(13);
    expect(relation?.category).toBe('action-mapping');
    expect(relation?.rewrite).toBe('{"team":"{{ .entity.team }}"}');
    expect(relation?.rewrite).not.toContain('owning_team"');
    // A jq string rewritten to another jq string still goes in place, quoted as the file quotes it.
    expect(at(12)?.rewrite).toBe('"team": "[\\"platform\\"]"');
  });
});

describe('rewrites of values written through an encoder call', () => {
  test('a Terraform jsonencode({…}) scorecard condition gets its rewrite inside the call', () => {
    const tf = `resource "port_scorecard" "own" {
  identifier = "own"
  title      = "Own"
  blueprint  = "service"
  rules = [{
    identifier = "r"
    title      = "R"
    level      = "Gold"
    query = {
      combinator = "and"
      conditions = [jsonencode({
        property = "$team"
        operator = "="
        value    = "Payments"
      })]
    }
  }]
}
`;
    expect(brief(judged(analyzeTerraform, sourceText('main.tf', tf), context({ jq })).findings)).toEqual([
      {
        at: 'main.tf:11',
        category: 'scorecard-rule',
        rewrite: 'jsonencode({\n        property = "$team"\n        operator = "="\n        value    = "payments"\n      })',
        verdict: 'breaks',
      },
    ]);
  });

  test('a Pulumi JSON.stringify({…}) condition gets it inside the call too', () => {
    const ts = `import * as port from "@port-labs/port";
new port.Scorecard("own", {
  identifier: "own",
  title: "Own",
  blueprintIdentifier: "service",
  rules: [{ identifier: "r", title: "R", level: "Gold",
    query: { combinator: "and", conditions: [JSON.stringify({ property: "$team", operator: "=", value: "Payments" })] } }],
});
`;
    expect(brief(judged(analyzePulumi, sourceText('index.ts', ts), 'js', context({ jq })).findings)).toEqual([
      { at: 'index.ts:7', category: 'scorecard-rule', rewrite: 'JSON.stringify({ property: "$team", operator: "=", value: "payments" })', verdict: 'breaks' },
    ]);
  });
});
