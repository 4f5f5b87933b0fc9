import { afterEach, describe, expect, test } from 'vitest';
import { rm } from 'node:fs/promises';
import { assessTeamExpression, type ImpactContext } from '../../src/judge/team-impact.js';
import { memoisedJudge, type ExpressionJudge } from '../../src/repo/judge-memo.js';
import { scanRepositories } from '../../src/repo/scan.js';
import { buildTeamDirectory } from '../../src/catalog/teams.js';
import { TEAMS, temporaryRepository } from './helpers.js';

/** The judge's own function, counting its calls. */
function counted(): { judge: ExpressionJudge; calls: string[] } {
  const calls: string[] = [];
  return { calls, judge: (expression, context, options) => (calls.push(expression), assessTeamExpression(expression, context, options)) };
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
