/**
 * Issue 11, item 2: a read of team values counts however it is written, and a name that only
 * looks like one (a user input, a relation or a variable called team, `$ENV.team`) does not.
 * Every row runs through `expressionFinding` with the real jq engine, on the sample kind of the
 * category it sits in, and states the verdict (or that there is no finding at all).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { judgeRule } from '../../src/judge/site-judge.js';
import { buildCatalog, type CatalogOptions } from '../../src/catalog/build-catalog.js';
import type { Catalog } from '../../src/catalog/catalog.js';
import { loadJqEngine, type JqEngine } from '../../src/jq/engine.js';
import type { Category, FindingDraft, Verdict } from '../../src/model/finding.js';
import type { JsonObject } from '../../src/model/json.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';
import { RULES } from '../../src/rules/index.js';
import { expressionFinding } from '../../src/judge/expression-finding.js';
import type { AssessOptions } from '../../src/judge/team-impact.js';

const snapshot = (extra: Partial<OrgSnapshot> = {}): OrgSnapshot => ({
  format: 'org-snapshot/1',
  organization: { id: 'org_1', name: 'Test org' },
  blueprints: [],
  teams: [
    { name: 'Platform Team', identifier: 'platform' },
    { name: 'Payments', identifier: 'payments' },
    // Not one of the two sample teams: only a sample holding it shows a comparison with it.
    { name: 'SRE', identifier: 'sre' },
  ],
  ...extra,
});

let jq: JqEngine;
let withJq: Catalog;
let tokensOnly: Catalog;
beforeAll(async () => {
  jq = await loadJqEngine();
  withJq = buildCatalog(snapshot(), { jq } satisfies CatalogOptions);
  tokensOnly = buildCatalog(snapshot(), {});
});

/** Where an expression sits decides what it runs on: an entity, a user-input context, policy results, a run. */
const KIND_OF: Record<'entity' | 'user-input' | 'policy' | 'action-run', Category> = {
  entity: 'calculation-property',
  'user-input': 'action-user-input',
  policy: 'action-dynamic-permission',
  'action-run': 'action-mapping',
};

interface Row {
  expression: string;
  kind: keyof typeof KIND_OF;
  /** `none`: no finding at all. */
  verdict: Verdict | 'none';
  rewrite?: string;
  /** The reason says the read was found by running the expression (the tokens show none). */
  foundByRunning?: boolean;
  options?: AssessOptions;
  teamProperties?: string[];
  /** Relations the migration removes from the blueprint the expression runs against. */
  removedRelations?: string[];
}

function judge(catalog: Catalog, row: Row): FindingDraft | undefined {
  return expressionFinding(
    catalog,
    {
      category: KIND_OF[row.kind],
      resource: { type: 'blueprint', identifier: 'service' },
      location: 'x',
      expression: row.expression,
      subject: 'The expression',
      removedRelations: new Set(row.removedRelations ?? []),
      ...(row.teamProperties && { teamProperties: new Set(row.teamProperties) }),
    },
    row.options,
  );
}

const FOUND_BY_RUNNING = 'reads team values (found by running it with jq';

const POSITIVE: Row[] = [
  // calculation properties: the entity itself
  { kind: 'entity', expression: '.team | index("Payments") != null', verdict: 'breaks', rewrite: '.team | index("payments") != null' },
  { kind: 'entity', expression: '.["team"] | join(",")', verdict: 'review' },
  { kind: 'entity', expression: 'getpath(["team"]) | join(",")', verdict: 'review', foundByRunning: true },
  { kind: 'entity', expression: 'getpath(["team"]) | index("Payments") != null', verdict: 'breaks', rewrite: 'getpath(["team"]) | index("payments") != null', foundByRunning: true },
  { kind: 'entity', expression: 'getpath(["team"]) | length > 0', verdict: 'unaffected', foundByRunning: true },
  { kind: 'entity', expression: 'getpath(["team"]) | index("SRE") != null', verdict: 'breaks', rewrite: 'getpath(["team"]) | index("sre") != null', foundByRunning: true },
  { kind: 'entity', expression: 'getpath(["team"]) | index("Marketing") != null', verdict: 'unaffected', foundByRunning: true },
  { kind: 'entity', expression: '. as {team: $t} | $t | join(",")', verdict: 'review', foundByRunning: true },
  { kind: 'entity', expression: '. as {$team} | $team | length', verdict: 'unaffected', foundByRunning: true },
  { kind: 'entity', expression: '.team as $t | $t | join(",")', verdict: 'review' },
  { kind: 'entity', expression: '.team as $t | $t | length > 0', verdict: 'unaffected' },
  { kind: 'entity', expression: 'to_entries[] | select(.key == "team") | .value | join(",")', verdict: 'review', foundByRunning: true },
  { kind: 'entity', expression: 'with_entries(select(.key == "team"))', verdict: 'review', foundByRunning: true },
  { kind: 'entity', expression: 'if has("team") then getpath(["team"]) | index("Payments") != null else false end', verdict: 'breaks', rewrite: 'if has("team") then getpath(["team"]) | index("payments") != null else false end', foundByRunning: true },
  { kind: 'entity', expression: 'if has("team") then .team[0] else null end', verdict: 'review' },
  { kind: 'entity', expression: '.properties.owning_team | join(",")', verdict: 'review', teamProperties: ['owning_team'] },
  { kind: 'entity', expression: '.properties.owning_team | index("Platform Team") != null', verdict: 'breaks', rewrite: '.properties.owning_team | index("platform") != null', teamProperties: ['owning_team'] },
  // user inputs (visible / dataset jqQuery): {user, entity, form}
  { kind: 'user-input', expression: '.user.team | contains(["Payments"])', verdict: 'breaks', rewrite: '.user.team | contains(["payments"])' },
  { kind: 'user-input', expression: '.user | getpath(["team"]) | contains(["Payments"])', verdict: 'breaks', rewrite: '.user | getpath(["team"]) | contains(["payments"])', foundByRunning: true },
  { kind: 'user-input', expression: '.user | to_entries[] | select(.key == "team") | .value | join(",")', verdict: 'review', foundByRunning: true },
  { kind: 'user-input', expression: '.entity as {team: $t} | $t | length', verdict: 'unaffected', foundByRunning: true },
  { kind: 'user-input', expression: '.user | with_entries(select(.key == "team")) | .team | index("Payments")', verdict: 'breaks', rewrite: '.user | with_entries(select(.key == "team")) | .team | index("payments")' },
  { kind: 'user-input', expression: '.entity.properties.owning_team | index("Payments") != null', verdict: 'breaks', rewrite: '.entity.properties.owning_team | index("payments") != null', teamProperties: ['owning_team'] },
  { kind: 'user-input', expression: '.user.team as $mine | .entity.team | any(. as $t | $mine | index($t) != null)', verdict: 'unaffected' },
  // policy conditions over the queries' results
  { kind: 'policy', expression: '.results.mine.entities | map(getpath(["team"])) | flatten | index("Payments") != null', verdict: 'breaks', foundByRunning: true },
  { kind: 'policy', expression: '.results.mine.entities | map(.team) | flatten | length > 0', verdict: 'unaffected' },
  { kind: 'policy', expression: '.results.mine.entities[0] as {team: $t} | $t | join(",")', verdict: 'breaks', foundByRunning: true },
  { kind: 'policy', expression: '.results.mine.entities | map(.properties.owning_team) | flatten | length > 0', verdict: 'unaffected', teamProperties: ['owning_team'] },
  { kind: 'policy', expression: '.results.mine.entities | map(.properties | getpath(["owning_team"])) | flatten | join(",")', verdict: 'breaks', teamProperties: ['owning_team'], foundByRunning: true },
  // automation conditions and action mappings: the run
  { kind: 'action-run', expression: '.diff.after | getpath(["team"]) | index("Payments") != null', verdict: 'breaks', rewrite: '.diff.after | getpath(["team"]) | index("payments") != null', foundByRunning: true },
  { kind: 'action-run', expression: '.event.diff.after as {team: $t} | $t | join(",")', verdict: 'review', foundByRunning: true },
  { kind: 'action-run', expression: '.diff.before["team"] != .diff.after["team"]', verdict: 'unaffected' },
  // a run's trigger names who ran it, no teams (the service's docs on a run's payload): the same in both worlds
  { kind: 'action-run', expression: '.trigger.by.user.team | join(",")', verdict: 'unaffected' },
  { kind: 'action-run', expression: '.entity | getpath(["team"])', verdict: 'unaffected', options: { setsTeam: true }, foundByRunning: true },
  { kind: 'action-run', expression: '.entity | getpath(["team"]) | map(ascii_downcase)', verdict: 'breaks', options: { setsTeam: true }, foundByRunning: true },
  // every team title of an expression that reads teams is rewritten
  { kind: 'entity', expression: '.team | (index("Payments") != null) and (index("Platform Team") != null)', verdict: 'breaks', rewrite: '.team | (index("payments") != null) and (index("platform") != null)' },
  // a title the mapping sets as the team is the team value itself
  { kind: 'action-run', expression: 'if .entity.identifier == "svc" then ["Payments"] else [] end', verdict: 'breaks', rewrite: 'if .entity.identifier == "svc" then ["payments"] else [] end', options: { setsTeam: true } },
  { kind: 'entity', expression: 'select(.blueprint == "x") | .team | index("Payments") != null', verdict: 'breaks', rewrite: 'select(.blueprint == "x") | .team | index("payments") != null' },
  // a pipe from an entity or a user keeps `.team` the team meta property
  { kind: 'action-run', expression: '.entity | .team | join(",")', verdict: 'review' },
  { kind: 'user-input', expression: '.user | .team | index("Payments") != null', verdict: 'breaks', rewrite: '.user | .team | index("payments") != null' },
  { kind: 'user-input', expression: '.entity as $e | $e.team | join(",")', verdict: 'review' },
];

const NEGATIVE: Row[] = [
  // a user input named team, in a run and in a user input's form
  { kind: 'action-run', expression: '.inputs.team', verdict: 'none' },
  { kind: 'action-run', expression: '.inputs.team | index("Payments") != null', verdict: 'none' },
  { kind: 'action-run', expression: '.trigger.inputs.team', verdict: 'none' },
  { kind: 'user-input', expression: '.form.team | length > 0', verdict: 'none' },
  { kind: 'user-input', expression: '.form | getpath(["team"])', verdict: 'none' },
  // ... also when the input namespace is piped on or bound to a variable first
  { kind: 'action-run', expression: '.inputs | .team', verdict: 'none' },
  { kind: 'action-run', expression: '.inputs | .team | index("Payments") != null', verdict: 'none' },
  { kind: 'action-run', expression: '.inputs as $i | $i.team', verdict: 'none' },
  { kind: 'user-input', expression: '.form | .team | length > 0', verdict: 'none' },
  // a relation named team to an ordinary blueprint, and a property named team
  { kind: 'entity', expression: '.relations.team | length', verdict: 'none' },
  { kind: 'entity', expression: '.relations["team"]', verdict: 'none' },
  { kind: 'user-input', expression: '.entity.relations | .team == "Platform Team"', verdict: 'none' },
  { kind: 'entity', expression: '.relations as $r | $r.team | length', verdict: 'none' },
  { kind: 'entity', expression: '.properties | .team == "Payments"', verdict: 'none' },
  { kind: 'entity', expression: '.properties.team == "Payments"', verdict: 'none' },
  { kind: 'policy', expression: '.results.mine.entities | map(.relations.team) | length > 0', verdict: 'none' },
  // the environment, and variables called $team bound to something else
  { kind: 'entity', expression: '$ENV.team', verdict: 'none' },
  { kind: 'policy', expression: '$ENV.team == "Payments"', verdict: 'none' },
  { kind: 'entity', expression: '"x" as $team | $team', verdict: 'none' },
  { kind: 'entity', expression: '"SRE" as $team | [$team] | index("SRE")', verdict: 'none' },
  { kind: 'action-run', expression: '.inputs.owner as $team | $team | length > 0', verdict: 'none' },
  { kind: 'user-input', expression: '.form.owner as $team | [$team] | index("Payments")', verdict: 'none' },
  // has("team") alone reads no team value; a property not known to hold teams is not one
  { kind: 'policy', expression: '.results.mine.entities[0] | has("team")', verdict: 'none' },
  { kind: 'entity', expression: '.properties.owning_team | join(",")', verdict: 'none' },
  { kind: 'entity', expression: '.teamsize > 3', verdict: 'none' },
];

describe('team reads in every form are found, with the expected verdict', () => {
  it.each(POSITIVE)('$kind: $expression → $verdict', (row) => {
    const finding = judge(withJq, row);
    expect(finding?.verdict).toBe(row.verdict);
    if ('rewrite' in row) expect(finding?.rewrite).toBe(row.rewrite);
    if (row.foundByRunning) expect(finding?.reason).toContain(FOUND_BY_RUNNING);
    else expect(finding?.reason).not.toContain(FOUND_BY_RUNNING);
  });
});

describe('names that only look like team reads give no finding', () => {
  it.each(NEGATIVE)('$kind: $expression', (row) => {
    expect(judge(withJq, row)).toBeUndefined();
  });

  it('still reviews a team mapping fed from a user input named team: it sets the team all the same', () => {
    const finding = judge(withJq, { kind: 'action-run', expression: '.inputs.team', verdict: 'review', options: { setsTeam: true } });
    expect(finding?.verdict).toBe('review');
    expect(finding?.reason).not.toContain('reads team values');
  });
});

/** Relation `owning_team` is removed by the migration; every way of reading it breaks. */
const REMOVED = ['owning_team'];
const RELATION_BY_RUNNING = 'reads relation "owning_team" (found by running it with jq';

const REMOVED_RELATION_READS: Row[] = [
  { kind: 'entity', expression: '.relations.owning_team', verdict: 'breaks', rewrite: '.team', removedRelations: REMOVED },
  { kind: 'entity', expression: 'getpath(["relations","owning_team"])', verdict: 'breaks', removedRelations: REMOVED, foundByRunning: true },
  { kind: 'user-input', expression: '.entity | getpath(["relations","owning_team"])', verdict: 'breaks', removedRelations: REMOVED, foundByRunning: true },
  { kind: 'user-input', expression: '.entity.relations as {owning_team: $t} | $t', verdict: 'breaks', removedRelations: REMOVED, foundByRunning: true },
  { kind: 'user-input', expression: '.entity.relations | to_entries[] | select(.key=="owning_team") | .value', verdict: 'breaks', removedRelations: REMOVED, foundByRunning: true },
  { kind: 'user-input', expression: '.entity.relations | has("owning_team")', verdict: 'breaks', removedRelations: REMOVED, foundByRunning: true },
  { kind: 'user-input', expression: '.entity.relations as $r | $r.owning_team', verdict: 'breaks', removedRelations: REMOVED },
  { kind: 'user-input', expression: '.entity | .relations | .owning_team', verdict: 'breaks', rewrite: '.entity | .team', removedRelations: REMOVED },
  { kind: 'policy', expression: '.results.mine.entities | map(.relations | getpath(["owning_team"])) | flatten | index("Payments") != null', verdict: 'unaffected', removedRelations: REMOVED, foundByRunning: true },
  { kind: 'action-run', expression: '.diff.after.relations | with_entries(select(.key == "owning_team"))', verdict: 'breaks', removedRelations: REMOVED, foundByRunning: true },
  // Issue 39: the relation's name built, or matched by a piece, is in no text: only running finds the read.
  { kind: 'entity', expression: '.relations | to_entries | map(select(.key | endswith("_team"))) | .[0].value', verdict: 'breaks', removedRelations: REMOVED, foundByRunning: true },
  { kind: 'user-input', expression: '.entity | getpath(["relations", "owning" + "_team"])', verdict: 'breaks', removedRelations: REMOVED, foundByRunning: true },
];

const NOT_REMOVED_RELATION_READS: Row[] = [
  // the name, but not as a relation of the entity: a property, a user input, a plain string
  { kind: 'entity', expression: '.properties | getpath(["owning_team"])', verdict: 'none', removedRelations: REMOVED },
  { kind: 'action-run', expression: '.inputs | getpath(["owning_team"])', verdict: 'none', removedRelations: REMOVED },
  { kind: 'entity', expression: '.identifier == "owning_team"', verdict: 'none', removedRelations: REMOVED },
  { kind: 'user-input', expression: '.entity.relations | has("owning_service")', verdict: 'none', removedRelations: REMOVED },
];

describe('a removed relation read in any form breaks', () => {
  it.each(REMOVED_RELATION_READS)('$kind: $expression → $verdict', (row) => {
    const finding = judge(withJq, row);
    expect(finding?.verdict).toBe(row.verdict);
    expect(finding?.reason).toContain('reads relation "owning_team"');
    if ('rewrite' in row) expect(finding?.rewrite).toBe(row.rewrite);
    // Found by running there is no edit that is certain: nothing to copy, the edit is said in words.
    else expect(finding?.rewrite).toBeUndefined();
    expect(finding?.suggestion).toContain('.team');
    if (row.foundByRunning) expect(finding?.reason).toContain(RELATION_BY_RUNNING);
    else expect(finding?.reason).not.toContain(RELATION_BY_RUNNING);
  });

  it.each(NOT_REMOVED_RELATION_READS)('$kind: $expression → no finding', (row) => {
    expect(judge(withJq, row)).toBeUndefined();
  });

  it('runs samples holding the relation only for an expression that can reach it', () => {
    const inputs: string[] = [];
    const recording: JqEngine = { validate: (e) => jq.validate(e), evaluate: (input, e) => (inputs.push(JSON.stringify(input)), jq.evaluate(input, e)) };
    const catalog = buildCatalog(snapshot(), { jq: recording });
    const withRelation = () => inputs.filter((input) => input.includes('"owning_team"')).length;
    // Fixed paths that cannot reach the relations: nothing to run with it.
    expect(judge(catalog, { kind: 'user-input', expression: '.user.team | length > 0', verdict: 'unaffected', removedRelations: REMOVED })?.verdict).toBe('unaffected');
    expect(inputs.length).toBeGreaterThan(0);
    expect(withRelation()).toBe(0);
    expect(judge(catalog, { kind: 'user-input', expression: '.entity.relations | has("owning_team")', verdict: 'breaks', removedRelations: REMOVED })?.verdict).toBe('breaks');
    expect(withRelation()).toBeGreaterThan(0);
  });
});

describe('an expression jq cannot finish running', () => {
  it('is a review with a note when only running could tell whether it reads teams', async () => {
    // The production limit: a shorter one would also cut the ordinary samples on a busy machine.
    const slow = await loadJqEngine();
    try {
      const finding = judge(buildCatalog(snapshot(), { jq: slow }), { kind: 'entity', expression: 'getpath(["team"]) as $t | last(range(1e9)) | $t', verdict: 'review' });
      expect(finding?.verdict).toBe('review');
      expect(finding?.note).toMatch(/^jq evaluation timed out/);
    } finally {
      await slow.close?.();
    }
  });
});

describe('without jq, tokens alone decide, as before', () => {
  it('keeps the reads tokens show and misses the ones only running shows', () => {
    expect(judge(tokensOnly, { kind: 'entity', expression: '.team | join(",")', verdict: 'review' })?.verdict).toBe('review');
    expect(judge(tokensOnly, { kind: 'entity', expression: 'getpath(["team"]) | join(",")', verdict: 'none' })).toBeUndefined();
  });

  it('drops what provably is no team value', () => {
    for (const expression of ['.inputs.team', '.form.team', '.relations.team', '$ENV.team', '"x" as $team | $team']) {
      expect(judge(tokensOnly, { kind: 'action-run', expression, verdict: 'none' }), expression).toBeUndefined();
    }
  });
});

describe('a rewrite offered to copy compiles', () => {
  it('offers no rewrite of an invalid expression: a note says it does not compile', () => {
    const finding = expressionFinding(withJq, {
      category: 'calculation-property',
      resource: { type: 'blueprint', identifier: 'service' },
      location: 'x',
      expression: '.relations.owning_team | index("Payments") !=',
      subject: 'The expression',
      removedRelations: new Set(['owning_team']),
    });
    expect(finding?.rewrite).toBeUndefined();
    expect(finding).toMatchObject({ noteOnly: true, note: expect.stringMatching(/^jq: error: syntax error/) });
  });

  it('checks every rewrite it does offer with jq', () => {
    for (const row of POSITIVE.filter((r) => r.rewrite !== undefined)) {
      expect(jq.validate(judge(withJq, row)!.rewrite!), row.expression).toEqual({ ok: true });
    }
  });
});

describe('webhook and workflow templates: a body key named team is only a name', () => {
  const action = (body: JsonObject): JsonObject => ({
    identifier: 'notify',
    title: 'notify',
    trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service', userInputs: { properties: { team: { type: 'string' } } } },
    invocationMethod: { type: 'WEBHOOK', url: 'https://hooks.example/x', body },
  });
  const run = (catalogOptions: CatalogOptions, body: JsonObject) =>
    judgeRule(buildCatalog(snapshot({ blueprints: [{ identifier: 'service', title: 'service', schema: { properties: {} }, relations: {} }], actions: [action(body)] }), catalogOptions), RULES.find((rule) => rule.category === 'action-mapping')!);

  it('is no finding when the value is a user input called team', () => {
    expect(run({ jq }, { team: '{{ .inputs.team }}' })).toEqual([]);
    expect(run({}, { team: '{{ .inputs.team }}' })).toEqual([]);
  });

  it('is a finding when the value is the entity\'s team, in any spelling', () => {
    expect(run({ jq }, { team: '{{ .entity.team }}' })).toMatchObject([{ location: 'invocationMethod.body.team', verdict: 'review' }]);
    expect(run({ jq }, { team: '{{ .entity | getpath(["team"]) | join(",") }}' })).toMatchObject([{ location: 'invocationMethod.body.team', verdict: 'review' }]);
    expect(run({}, { team: '{{ .entity.team }}' })).toMatchObject([{ location: 'invocationMethod.body.team', verdict: 'review' }]);
  });
});
