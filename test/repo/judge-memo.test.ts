import { afterEach, describe, expect, test } from 'vitest';
import { rm } from 'node:fs/promises';
import { assessTeamExpression, type ImpactContext } from '../../src/judge/team-impact.js';
import { derivedSeen, memoisedJudge, type ExpressionJudge } from '../../src/judge/expression-memo.js';
import { scanRepositories } from '../../src/repo/scan.js';
import { buildTeamDirectory } from '../../src/catalog/teams.js';
import { TEAMS, temporaryRepository } from './helpers.js';
import { useJqEngine } from '../support/jq-engine.js';

const jq = useJqEngine();

/** The judge's own function, counting its calls. */
function counted(): { judge: ExpressionJudge; calls: string[]; contexts: ImpactContext[] } {
  const calls: string[] = [];
  const contexts: ImpactContext[] = [];
  return { calls, contexts, judge: (expression, context, options) => (calls.push(expression), contexts.push(context), assessTeamExpression(expression, context, options)) };
}

const READS_OWNER = '.relations.owning_team | length > 0';
const base = (): ImpactContext => ({ teams: TEAMS, removedRelations: new Set(), sample: 'entity', migrated: false });

describe('one verdict per distinct expression text and context (issue 41)', () => {
  test('the same text in an equal context is judged once, its verdict given again', () => {
    const { judge, calls } = counted();
    const memo = memoisedJudge(judge);
    const first = memo('.team | index("Platform Team") != null', base());
    // Built anew, as each file's catalog builds it: equal sets and options are the same key.
    const again = memo('.team | index("Platform Team") != null', { ...base(), removedRelations: new Set() }, {});
    expect(calls).toHaveLength(1);
    expect(again).toBe(first);
    expect(first?.verdict).toBe('breaks');
  });

  test('the same text in contexts that differ is judged in each: removed relations, teams, kept team relations, options', () => {
    const { judge, calls } = counted();
    const memo = memoisedJudge(judge);
    const removed = memo(READS_OWNER, { ...base(), removedRelations: new Set(['owning_team']) });
    const kept = memo(READS_OWNER, base());
    expect(removed?.removedRelations).toEqual(['owning_team']);
    expect(kept).toBeUndefined();
    const titled = '.team | index("Platform Team") != null';
    const known = memo(titled, base());
    const unknown = memo(titled, { ...base(), teams: buildTeamDirectory([{ name: 'Platform Team' }], []) });
    expect(known?.titles).toEqual([{ title: 'Platform Team', identifier: 'platform' }]);
    expect(unknown?.titles[0]?.identifier).not.toBe('platform');
    memo(READS_OWNER, { ...base(), teamRelations: new Set(['owning_team']) });
    memo(READS_OWNER, base(), { setsTeam: true });
    // The order of a set's items is part of its key: a judge may list them in that order.
    memo(READS_OWNER, { ...base(), removedRelations: new Set(['a', 'owning_team']) });
    memo(READS_OWNER, { ...base(), removedRelations: new Set(['owning_team', 'a']) });
    expect(calls).toHaveLength(8);
  });

  test('two jq engines written alike (the same methods, other state) are two contexts', () => {
    const { judge, calls } = counted();
    const memo = memoisedJudge(judge);
    const engine = (answer: string) => ({ evaluate: () => answer }) as unknown as ImpactContext['jq'];
    memo(READS_OWNER, { ...base(), jq: engine('a') });
    memo(READS_OWNER, { ...base(), jq: engine('b') });
    expect(calls).toHaveLength(2);
  });
});

/** Calculations derived from team values, as a file's catalog gives them (team-valued.ts `allDerivedTeamProperties`). */
const OWNERS = '[.team[] | ascii_downcase] | join(", ")';
const derived = (entries: Record<string, string>): ReadonlyMap<string, string> => new Map(Object.entries(entries));

describe('the derived calculations an expression can see (issue 41)', () => {
  const all = derived({ owners_text: OWNERS, label: '.properties.owners_text + " team"', other: '.team | first', loop_a: '.properties.loop_b', loop_b: '.properties.loop_a' });
  test.each([
    ['none, reading no property', '.team | index("Platform Team") != null', []],
    ['none, reading plain properties', '.properties.tier + .relations.domain', []],
    ['the one it names', '.properties.owners_text | test("platform")', ['owners_text']],
    ['by a bracket key', '.properties["other"] // "none"', ['other']],
    ['the ones those read, in the given order', '.properties.label', ['owners_text', 'label']],
    ['a cycle, each once', '.properties.loop_a', ['loop_a', 'loop_b']],
  ])('%s', (_, expression, names) => {
    expect([...derivedSeen(expression, all).keys()]).toEqual(names);
  });
  test.each([
    ['properties read whole', '.properties | keys'],
    ['the entity bound to a variable', '. as $e | $e.properties.tier'],
    ['every value', '[..] | length'],
    ['the input as text', 'tojson | test("platform")'],
    ['a text jq cannot lex', '.team | "unterminated'],
  ])('all of them (the same map) when it may read beyond fixed paths: %s', (_, expression) => {
    expect(derivedSeen(expression, all)).toBe(all);
  });
  test('all of them when a calculation it reads reads beyond fixed paths', () => {
    const wide = derived({ owners_text: OWNERS, dump: '.properties | tojson', reads_dump: '.properties.dump' });
    expect(derivedSeen('.properties.reads_dump', wide)).toBe(wide);
  });
});

describe('the memo judges with the derived calculations the expression can see', () => {
  const inFile = (calculations: Record<string, string>): ImpactContext => ({ ...base(), jq, derivedProperties: derived(calculations) });

  test('a text that reads none of them, in two files whose own calculations differ: judged once, as the judge judges it with all of them', () => {
    const { judge, calls, contexts } = counted();
    const memo = memoisedJudge(judge);
    const text = '.team | index("Platform Team") != null';
    const first = inFile({ owners_text: OWNERS, label: '.properties.owners_text + " for svc1"' });
    const second = inFile({ owners_text: `${OWNERS} + " for svc2"` });
    const verdicts = [memo(text, first), memo(text, second)];
    expect(calls).toHaveLength(1);
    expect(contexts[0]?.derivedProperties?.size).toBe(0);
    expect(verdicts[0]?.verdict).toBe('breaks');
    expect(verdicts).toEqual([assessTeamExpression(text, first), assessTeamExpression(text, second)]);
  });

  test('a text that reads one, whose calculation differs between the files: judged in each, as the judge judges it', () => {
    const { judge, calls } = counted();
    const memo = memoisedJudge(judge);
    const text = '.properties.owners_text | test("platform")';
    const lowered = inFile({ owners_text: OWNERS, unread: '.team | first' });
    const titled = inFile({ owners_text: '[.team[]] | join(", ")', unread: '.team | last' });
    const verdicts = [memo(text, lowered), memo(text, titled)];
    expect(calls).toHaveLength(2);
    expect(verdicts).toEqual([assessTeamExpression(text, lowered), assessTeamExpression(text, titled)]);
    expect(verdicts[0]).not.toEqual(verdicts[1]);
  });

  test('a text that reads one calculation reading another: judged with both, as the judge judges it', () => {
    const { judge, calls, contexts } = counted();
    const memo = memoisedJudge(judge);
    const text = '.properties.label | startswith("platform team")';
    const label = '.properties.owners_text + " on call"';
    const chained = inFile({ owners_text: OWNERS, label, unread: '.team | first' });
    const verdict = memo(text, chained);
    expect(calls).toHaveLength(1);
    expect([...(contexts[0]?.derivedProperties?.keys() ?? [])]).toEqual(['owners_text', 'label']);
    expect(verdict).toEqual(assessTeamExpression(text, chained));
    expect(verdict?.verdict).toBe('breaks');
  });
});

describe('the repository scan judges through the memo', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test('one calculation text in two blueprints, the relation it reads removed in one only: a finding there, none in the other', async () => {
    const blueprint = (id: string, inherited: boolean) =>
      [
        `resource "port_blueprint" "${id}" {`,
        `  identifier = "${id}"`,
        `  relations = { "owning_team" = { target = "_team", required = false, many = true } }`,
        ...(inherited ? ['  team_inheritance = { path = "owning_team" }'] : []),
        `  calculation_properties = { owned = { title = "Owned", type = "boolean", calculation = "${READS_OWNER}" } }`,
        `}`,
      ].join('\n');
    dir = await temporaryRepository({ 'a/main.tf': blueprint('inherits', true), 'b/main.tf': blueprint('keeps', false), 'c/main.tf': blueprint('inherits_too', true) });
    const scan = await scanRepositories([dir]);
    const calculations = scan.findings.filter((f) => f.category === 'calculation-property').map((f) => `${f.resource.identifier.split('/').slice(-2).join('/')} ${f.verdict}`);
    expect(calculations.sort()).toEqual(['a/main.tf breaks', 'c/main.tf breaks']);
  });
});
