import { describe, expect, test } from 'vitest';
import { analyzeJsonPayload, analyzeScript, analyzeShell, callsServiceApi } from '../../src/repo/api-scripts.js';
import { sourceText } from '../../src/repo/source-text.js';
import { brief, context, judged } from './helpers.js';

describe('API scripts and payloads', () => {
  test('curl bodies in single quotes and heredocs; commented-out calls are skipped', () => {
    const script = `#!/bin/sh
# curl -X POST https://api.getport.io/v1/blueprints -d '{"teamInheritance": {"path": "old"}}'
curl -X POST "https://api.getport.io/v1/blueprints" \\
  -d '{"identifier": "service", "teamInheritance": {"path": "domain"}}'
curl -X PATCH https://api.getport.io/v1/blueprints/service/permissions --data @- <<EOF
{
  "entities": {
    "register": {"teams": ["Platform Team"], "ownedByTeam": false}
  }
}
EOF
echo "done: teams [\\"Payments\\"]"
`;
    expect(callsServiceApi(script)).toBe(true);
    const { findings } = judged(analyzeShell, sourceText('scripts/setup.sh', script), context());
    expect(brief(findings)).toEqual([
      { at: 'scripts/setup.sh:4', category: 'external-ownership', rewrite: '"ownership": {"type": "Inherited", "path": "domain"}', verdict: 'breaks' },
      { at: 'scripts/setup.sh:8', category: 'team-permission-identifiers', rewrite: '"teams": ["platform"]', verdict: 'breaks' },
    ]);
  });

  test('issue 39: a curl body spliced with shell quotes is read as the shell reads it, not as broken JSON', () => {
    // '…["'"$TEAM"'"]…' is one shell word: the JSON with $TEAM's value in the string.
    const script = `curl -X POST https://api.getport.io/v1/blueprints/service/entities \\
  -d '{"identifier": "svc", "team": ["'"$TEAM"'"], "properties": {}}'
curl -X PATCH https://api.getport.io/v1/blueprints/service/permissions -d '{"entities": {"register": {"teams": ["'"$OWNER"'", "Platform Team"]}}}'
`;
    const { findings, problems } = judged(analyzeShell, sourceText('scripts/spliced.sh', script), context());
    expect(problems).toEqual([]);
    expect(brief(findings)).toEqual([
      { at: 'scripts/spliced.sh:2', category: 'external-ownership', verdict: 'review' },
      { at: 'scripts/spliced.sh:3', category: 'team-permission-identifiers', verdict: 'breaks' },
    ]);
  });

  test('issue 39: the splice is found by its offsets after characters outside the BMP too (an emoji counted as one character shifted every offset)', () => {
    const script = `echo "🚀🚀🚀 deploying"
curl -X PATCH https://api.getport.io/v1/blueprints/service/permissions -d '{"entities": {"register": {"teams": ["'"$OWNER"'", "Platform Team"]}}}'
`;
    const { findings, problems } = judged(analyzeShell, sourceText('scripts/spliced.sh', script), context());
    expect(problems).toEqual([]);
    expect(brief(findings)).toEqual([{ at: 'scripts/spliced.sh:2', category: 'team-permission-identifiers', verdict: 'breaks' }]);
  });

  test('a body in double quotes is read as the shell reads it: \\" is a quote, $X is filled in when the script runs', () => {
    const script = `#!/bin/sh
curl -s -X POST -H "Content-Type: application/json" \\
  --data-raw "{
    \\"identifier\\": \\"$repo\\",
    \\"team\\": [\\"Platform Team\\"]
  }" \\
  "https://api.getport.io/v1/blueprints/service/entities?upsert=true"
curl -X POST https://api.getport.io/v1/blueprints/service/entities -d "{\\"identifier\\": \\"b\\", \\"team\\": [\\"$OWNER\\"]}"
curl -X POST https://api.getport.io/v1/blueprints/service/entities -d "{\\"identifier\\": \\"c\\", \\"team\\": [\\"\\$OWNER\\"]}"
echo "[INFO] done"
echo "{not json at all}"
`;
    const { findings, problems } = judged(analyzeShell, sourceText('scripts/quoted.sh', script), context());
    expect(problems).toEqual([]);
    expect(brief(findings)).toEqual([
      { at: 'scripts/quoted.sh:5', category: 'external-ownership', verdict: 'breaks' },
      { at: 'scripts/quoted.sh:8', category: 'external-ownership', verdict: 'review' },
      { at: 'scripts/quoted.sh:9', category: 'external-ownership', verdict: 'review' },
    ]);
    // The expansion is named as the script's, not taken for a team called "$OWNER"; an escaped \$ is a literal dollar.
    expect(findings[1]!.reason).toContain('$OWNER, which the script fills in when it runs');
    expect(findings[2]!.reason).toContain('"$OWNER", which is neither a known team title nor a known identifier');
    // Text the shell rewrites (its backslashes) gets no line to copy.
    expect(findings[0]!.rewrite).toBeUndefined();
  });

  test('a team list spliced in as a whole shell word, and a heredoc that expands, are filled in at run time: review', () => {
    const script = `curl -X POST https://api.getport.io/v1/blueprints/service/entities --data-raw '{"identifier": "x", "team": '"$teams"'}'
curl -X POST https://api.getport.io/v1/blueprints/service/entities --data @- <<EOF
{"identifier": "y", "team": ["\${TEAM}"]}
EOF
curl -X POST https://api.getport.io/v1/blueprints/service/entities --data @- <<'EOF'
{"identifier": "z", "team": ["Platform Team"]}
EOF
`;
    const { findings, problems } = judged(analyzeShell, sourceText('scripts/runtime.sh', script), context());
    expect(problems).toEqual([]);
    expect(brief(findings)).toEqual([
      { at: 'scripts/runtime.sh:1', category: 'external-ownership', verdict: 'review' },
      { at: 'scripts/runtime.sh:3', category: 'external-ownership', verdict: 'review' },
      { at: 'scripts/runtime.sh:6', category: 'external-ownership', rewrite: '"team": ["platform"]', verdict: 'breaks' },
    ]);
    expect(findings[0]!.reason).toContain('$teams, which the script fills in when it runs');
    expect(findings[0]!.evidence).toBe('"team": "$teams"');
    expect(findings[1]!.reason).toContain('${TEAM}, which the script fills in when it runs');
  });

  test('an expansion where the JSON wants a value (a list the script built) is read as a value the script fills in', () => {
    const script = `teams=$(echo "$teams" | jq -R . | jq -s .)
curl -s --request POST \\
  --data-raw "{
    \\"identifier\\": \\"$repo\\",
    \\"team\\": $teams,
    \\"properties\\": {}
  }" \\
  "https://api.getport.io/v1/blueprints/service/entities?upsert=true"
curl -s -X POST https://api.getport.io/v1/blueprints/service/entities -d "{\\"identifier\\": \\"x\\", \\"team\\": \${TEAMS}}"
`;
    const { findings, problems } = judged(analyzeShell, sourceText('scripts/sync.sh', script), context());
    expect(problems).toEqual([]);
    expect(brief(findings)).toEqual([
      { at: 'scripts/sync.sh:5', category: 'external-ownership', verdict: 'review' },
      { at: 'scripts/sync.sh:9', category: 'external-ownership', verdict: 'review' },
    ]);
    expect(findings[0]!.reason).toContain('$teams, which the script fills in when it runs');
  });

  test('JS and Python request bodies', () => {
    const js = `const res = await fetch("https://api.getport.io/v1/actions/deploy/permissions", {
  method: "PATCH",
  body: JSON.stringify({ execute: { teams: ["SRE On-Call"] } }),
});
// body: JSON.stringify({ execute: { teams: ["Payments"] } })
`;
    expect(brief(judged(analyzeScript, sourceText('scripts/perm.js', js), 'js', context()).findings)).toEqual([
      { at: 'scripts/perm.js:3', category: 'team-permission-identifiers', rewrite: 'teams: ["sre_oncall"]', verdict: 'breaks' },
    ]);
    const py = `import requests
requests.post(f"{API}/v1/blueprints/service/entities?upsert=true", json={"identifier": "checkout", "team": ["Payments", "Data Science"]})
`;
    expect(brief(judged(analyzeScript, sourceText('scripts/entity.py', py), 'python', context()).findings)).toEqual([
      { at: 'scripts/entity.py:2', category: 'external-ownership', rewrite: '"team": ["payments", "Data Science"]', verdict: 'breaks' },
    ]);
  });

  test('a team value a script computes (a variable, a call) is a review that names it, never silence', () => {
    const py = `import requests
def upsert(teams):
    requests.post(f"{API}/v1/blueprints/service/entities?upsert=true", json={"identifier": "x", "team": teams})
    requests.post(f"{API}/v1/blueprints/service/entities?upsert=true", json={"identifier": "y", "team": [owner_of("y")]})
`;
    const { findings } = judged(analyzeScript, sourceText('scripts/sync.py', py), 'python', context());
    expect(brief(findings)).toEqual([
      { at: 'scripts/sync.py:3', category: 'external-ownership', verdict: 'review' },
      { at: 'scripts/sync.py:4', category: 'external-ownership', verdict: 'review' },
    ]);
    expect(findings[0]!.reason).toContain('`teams`, which the script computes when it runs');
    expect(findings[1]!.reason).toContain('`owner_of("y")`, which the script computes when it runs');
    // An empty list and a literal identifier stay quiet.
    const quiet = `requests.post(f"{API}/v1/blueprints/service/entities?upsert=true", json={"identifier": "z", "team": []})\n`;
    expect(judged(analyzeScript, sourceText('scripts/quiet.py', quiet), 'python', context()).findings).toEqual([]);
  });

  test('JSON payload files: blueprint bodies and permission bodies; unrelated JSON gives nothing', () => {
    const blueprints = `[
  {"identifier": "service", "title": "Service", "teamInheritance": {"path": "domain"}},
  {"identifier": "domain", "ownership": {"type": "Direct"}}
]`;
    expect(brief(judged(analyzeJsonPayload, sourceText('.port/resources/blueprints.json', blueprints), context()).findings)).toEqual([
      { at: '.port/resources/blueprints.json:2', category: 'external-ownership', rewrite: '"ownership": {"type": "Inherited", "path": "domain"}', verdict: 'breaks' },
    ]);
    const unrelated = '{"name": "app", "contributors": {"teams": ["Platform Team"]}, "team": "Payments"}';
    expect(judged(analyzeJsonPayload, sourceText('package.json', unrelated), context()).findings).toEqual([]);
  });
  test('a script that uses teamInheritance and never handles ownership must handle ownership after the migration', () => {
    const reads = `import requests
# ownership is not handled here (a comment does not count)
def path(bp):
    return requests.get(f"https://api.getport.io/v1/blueprints/{bp}").json()["blueprint"]["teamInheritance"]["path"]
`;
    const { findings } = judged(analyzeScript, sourceText('s/owners.py', reads), 'python', context());
    expect(brief(findings)).toEqual([{ at: 's/owners.py:4', category: 'external-ownership', verdict: 'review' }]);
    expect(findings[0]!.suggestion).toContain('`ownership`');
    const handles = reads.replace('["teamInheritance"]["path"]', '.get("ownership") or bp["teamInheritance"]');
    expect(judged(analyzeScript, sourceText('s/owners.py', handles), 'python', context()).findings).toEqual([]);
    const shell = `#!/bin/sh
# curl https://api.getport.io/v1/blueprints/x | jq .blueprint.teamInheritance
curl -s https://api.getport.io/v1/blueprints/x | jq .blueprint.teamInheritance.path
`;
    expect(brief(judged(analyzeShell, sourceText('s/path.sh', shell), context()).findings)).toEqual([{ at: 's/path.sh:3', category: 'external-ownership', verdict: 'review' }]);
  });

  test('JSON resource files are read as the resources they hold: actions, pages, and containers of them', () => {
    const actions = JSON.stringify({
      actions: [
        {
          identifier: 'a',
          trigger: { type: 'self-service', userInputs: { properties: { x: { type: 'string', format: 'entity', blueprint: 'b', dataset: { combinator: 'and', rules: [{ property: '$team', operator: '=', value: 'Payments' }] } } } } },
          invocationMethod: { type: 'WEBHOOK', url: 'https://x', body: { name: '{{ .inputs.name }}' } },
        },
      ],
    }, null, 2);
    const { findings } = judged(analyzeJsonPayload, sourceText('.port/resources/actions.json', actions), context());
    expect(findings.map((f) => [f.category, f.verdict, f.resource.title, f.rewrite])).toEqual([
      ['action-user-input', 'breaks', 'action a', '{\n                    "property": "$team",\n                    "operator": "=",\n                    "value": "payments"\n                  }'],
    ]);
  });
});
