import { beforeAll, describe, expect, it } from 'vitest';
import { buildTeamDirectory } from '../../src/catalog/teams.js';
import { loadJqEngine, type JqEngine } from '../../src/jq/engine.js';
import type { SampleKind } from '../../src/model/sites.js';
import { assessTeamExpression, type AssessOptions } from '../../src/judge/team-impact.js';

const teams = buildTeamDirectory(
  [
    { name: 'Platform Team', identifier: 'platform' },
    { name: 'Payments', identifier: 'payments' },
    { name: 'Data Science' }, // identifier not known yet
  ],
  [],
);
const removedRelations = new Set(['owning_team']);

let jq: JqEngine;
beforeAll(async () => {
  jq = await loadJqEngine();
});

const withJq = (expression: string, sample: SampleKind, options: AssessOptions = {}) =>
  assessTeamExpression(expression, { teams, removedRelations, jq, sample }, options);
const readOnly = (expression: string, options: AssessOptions = {}) => assessTeamExpression(expression, { teams, removedRelations }, options);

describe('title literals → breaks with the exact rewrite', () => {
  it('rewrites a title to its identifier, and only that token', () => {
    const impact = withJq('.user.team | contains(["Platform Team"]) and .entity.title == "Platform Team ops"', 'user-input');
    expect(impact).toMatchObject({ verdict: 'breaks', titles: [{ title: 'Platform Team', identifier: 'platform' }] });
    expect(impact?.rewrite).toBe('.user.team | contains(["platform"]) and .entity.title == "Platform Team ops"');
  });

  it('names a title whose identifier is unknown, and never invents one', () => {
    const impact = withJq('.team | index("Data Science") != null', 'entity');
    expect(impact).toMatchObject({ verdict: 'breaks', titles: [{ title: 'Data Science' }] });
    expect(impact?.titles[0]).not.toHaveProperty('identifier');
    expect(impact?.rewrite).toBeUndefined();
  });

  it('ignores a title in an expression that does not touch teams', () => {
    expect(withJq('.properties.owner == "Platform Team"', 'entity')).toBeUndefined();
  });

  it('ignores a title inside a string template', () => {
    // Not the literal "Payments": the string is a template around .prefix.
    const impact = withJq('.team | index("\\(.prefix)Payments")', 'entity');
    expect(impact?.titles).toEqual([]);
    expect(impact?.rewrite).toBeUndefined();
  });
});

describe('identifier literals → unaffected', () => {
  it('run, an identifier before the migration breaks (it starts matching); read only, it is taken as is', () => {
    expect(withJq('.team | contains(["payments"])', 'entity')).toMatchObject({ verdict: 'breaks', evaluation: expect.stringContaining('written for team identifiers') });
    expect(readOnly('.team | contains(["payments"])')?.verdict).toBe('unaffected');
  });
});

describe('removed relations → breaks, replaced by .team', () => {
  it('rewrites every spelling of the removed relation', () => {
    expect(withJq('.relations.owning_team | join(",")', 'entity')).toMatchObject({
      verdict: 'breaks',
      removedRelations: ['owning_team'],
      rewrite: '.team | join(",")',
    });
    expect(withJq('.entity.relations["owning_team"][]?', 'user-input')?.rewrite).toBe('.entity.team[]?');
    expect(withJq('.relations | .owning_team | length', 'entity')?.rewrite).toBe('.team | length');
  });

  it('says nothing about relations that stay', () => {
    expect(withJq('.relations.domain', 'entity')).toBeUndefined();
  });
});

describe('evaluated on samples', () => {
  it('breaks when the result differs between titles and identifiers, showing both', () => {
    const impact = withJq('.team | map(ascii_downcase) | join(", ")', 'entity');
    expect(impact?.verdict).toBe('breaks');
    expect(impact?.evaluation).toMatch(/it gives ".+" with team titles but ".+" with team identifiers/);
    // Reading alone cannot tell: review.
    expect(readOnly('.team | join(", ")')?.verdict).toBe('review');
  });

  it('is unaffected when team values are only compared with each other', () => {
    expect(withJq('.diff.before.team != .diff.after.team', 'action-run')?.verdict).toBe('unaffected');
    expect(withJq('.user.team as $mine | .entity.team | any(. as $t | $mine | index($t) != null)', 'user-input')?.verdict).toBe('unaffected');
    expect(withJq('.results.oncall.entities | map(.team) | flatten | length > 0', 'policy')?.verdict).toBe('unaffected');
    expect(withJq('if (.team | length) > 0 then "owned" else "orphan" end', 'entity')?.verdict).toBe('unaffected');
  });

  it('fills the policy results the condition names', () => {
    expect(withJq('.results.oncall.entities[0].team[0]', 'policy', { sink: 'gate' })).toMatchObject({ verdict: 'breaks' });
  });

  it('reviews when the result is the same but the expression reads what the sample cannot fill', () => {
    // (`.team | index(.properties.owner_team)` would read `.properties` of the team list: an error for everyone.)
    const impact = withJq('.properties.owner_team as $owner | .team | index($owner) != null', 'entity');
    expect(impact?.verdict).toBe('review');
    expect(impact?.evaluation).toContain('.properties.owner_team');
  });

  it('a literal that names no team of the org compares with nothing the org holds, before or after', () => {
    const impact = withJq('.team | index("Marketing") != null', 'entity');
    expect(impact?.verdict).toBe('unaffected');
  });

  it('accepts a team-setting expression that passes team values through', () => {
    expect(withJq('.entity.team', 'action-run', { setsTeam: true })?.verdict).toBe('unaffected');
    expect(withJq('.entity.team | map(ascii_downcase)', 'action-run', { setsTeam: true })?.verdict).toBe('breaks');
    expect(withJq('.inputs.owner', 'action-run', { setsTeam: true })?.verdict).toBe('review');
  });

  it('never runs expressions on external payloads', () => {
    // .team of an integration payload is the source's own field.
    expect(withJq('.team | join(",")', 'entity', { externalInput: true })).toBeUndefined();
    expect(withJq('.teams[0].name', 'entity', { externalInput: true, setsTeam: true })?.verdict).toBe('review');
  });
});

describe('invalid jq', () => {
  // Issue 39: it fails alike before the migration and after it, so nothing is read or run: jq's message only (a note, decision-table.ts `does-not-compile`).
  const doesNotCompile = { verdict: 'unaffected', teamReads: [], removedRelations: [], titles: [], jqError: expect.stringContaining('syntax error') };

  it('judges a team-touching expression jq rejects as not compiling, with jq\'s message, whatever it reads', () => {
    expect(withJq('.team | contains(["payments"]', 'entity')).toEqual(doesNotCompile);
    // A title in it changes nothing: the expression fails in both worlds, and no edit of it is offered.
    expect(withJq('.team | index("Payments"', 'entity')).toEqual(doesNotCompile);
  });

  it('so too one our lexer cannot read', () => {
    expect(withJq('.team | "unterminated', 'entity')).toEqual({ ...doesNotCompile, jqError: expect.any(String) });
    expect(withJq('.["team"] | ! 1', 'entity')).toEqual(doesNotCompile);
    expect(withJq('.relations.owning_team | ! 1', 'entity')).toEqual(doesNotCompile);
  });

  // Issue 39: what our lexer cannot read is judged by running it, never by a word of its text.
  describe('an expression our lexer cannot read, that jq runs', () => {
    const UNREADABLE = '"\\q" as $x | ';
    // jq as if it read the prefix our lexer cannot: it runs what follows it.
    const lenient = (): JqEngine => ({
      validate: (expression) => jq.validate(expression.replace(UNREADABLE, '')),
      evaluate: (input, expression) => jq.evaluate(input, expression.replace(UNREADABLE, '')),
    });
    const run = (expression: string, engine: JqEngine | undefined) =>
      assessTeamExpression(UNREADABLE + expression, { teams, removedRelations, ...(engine && { jq: engine }), sample: 'entity' });

    it('is reviewed when running shows it reads teams, though no word of it says "team"', () => {
      const impact = run('getpath(["te" + "am"]) | join(",")', lenient());
      expect(impact).toMatchObject({ verdict: 'review', lexError: expect.stringContaining('invalid escape') });
      expect(impact?.foundByRunning).toContain('found by running it with jq');
    });

    it('is reviewed when running shows it reads a removed relation by a built name', () => {
      expect(run('getpath(["relations", "owning" + "_team"])', lenient())?.verdict).toBe('review');
    });

    it('gives no finding when running shows it reads no team value', () => {
      expect(run('.properties.size + 1', lenient())).toBeUndefined();
    });

    it('is reviewed without jq: nothing then tells what it reads', () => {
      expect(run('getpath(["te" + "am"])', undefined)?.verdict).toBe('review');
    });
  });

  it('drops invalid expressions that never touch teams: not this audit\'s business', () => {
    expect(withJq('.properties.x |', 'entity')).toBeUndefined();
  });

  it('judges one that neither our lexer nor jq reads as not compiling: it fails alike in both worlds', () => {
    expect(withJq('.teams | ! 1', 'entity')).toEqual(doesNotCompile);
  });
});

describe('a repository read alone (no team of the org known)', () => {
  const alone = buildTeamDirectory([], [], {}, true);
  const assess = (expression: string) => assessTeamExpression(expression, { teams: alone, removedRelations, jq, sample: 'entity' });

  it('a title it compares with, beside other strings and a case fold, is still tried as a team and breaks', () => {
    // The third string is the title (it holds a space, which no identifier does): the case-fold stand-in must not take its place.
    const impact = assess('.team | map(select(ascii_downcase == "x" or . == "y" or . == "Ops Team")) | length');
    expect(impact?.verdict).toBe('breaks');
    expect(impact?.evaluation).toContain('"Ops Team"');
  });

  it('a case fold of the team values with no title in sight: the stand-in whose identifier is its lower-cased title shows the change', () => {
    // Before: "sampleteam" is no team title ("Sampleteam" is); after, the identifier "sampleteam" is the team.
    const expression = '.team | map(ascii_downcase) | index("sampleteam") != null';
    const run = (team: string) => jq.evaluate({ team: [team] }, expression);
    expect([run('Sampleteam'), run('sampleteam')]).toEqual([{ ok: true, values: [true] }, { ok: true, values: [true] }]);
    // The same on both: folding case hides the change, and the judge says so (negative case).
    expect(assess(expression)?.verdict).not.toBe('breaks');
  });
});

describe('issue 39: what is judged is chosen by running, not by the word "team" in its text', () => {
  it('judges an expression that looks for a team title anywhere in the entity', () => {
    const impact = withJq('any(.. | strings; . == "Payments")', 'entity');
    expect(impact).toMatchObject({ verdict: 'breaks', titles: [{ title: 'Payments', identifier: 'payments' }] });
  });

  it('judges an expression that builds the key it reads', () => {
    expect(withJq('.[("te" + "am")] | index("Payments") != null', 'entity')).toMatchObject({ verdict: 'breaks' });
  });

  it('still drops one whose reads never reach a team value, even with a title in it', () => {
    expect(withJq('.properties.language == "Payments"', 'entity')).toBeUndefined();
    expect(withJq('[.properties | to_entries[] | select(.key == "language") | .value] | index("Payments")', 'entity')).toBeUndefined();
  });
});

describe('issue 39: every team of the org is tried (one of each class the expression cannot tell apart), not three picked from its text', () => {
  // More teams than "every team at once" holds; "Billing Ops" and "Données Ops" have the shape of
  // "Platform Team" (a space, capitals, an identifier that is not its slug): only their encoding sets them apart.
  const many = buildTeamDirectory(
    [
      { name: 'Platform Team', identifier: 'platform' },
      { name: 'Payments', identifier: 'payments' },
      { name: 'QA', identifier: 'qa' },
      ...Array.from({ length: 45 }, (_, i) => ({ name: `Squad ${i}`, identifier: `sq${i}` })),
      { name: 'Billing Ops', identifier: 'billing' },
      { name: 'Données Ops', identifier: 'donnees' },
    ],
    [],
  );
  const run = (expression: string) => assessTeamExpression(expression, { teams: many, removedRelations, jq, sample: 'entity' });

  it('meets a team title written in base64 with its team', () => {
    expect(run('.team | map(@base64) | index("QmlsbGluZyBPcHM=") != null')).toMatchObject({ verdict: 'breaks', evaluation: expect.stringContaining('Billing Ops') });
  });

  it('meets a team title written URL-encoded with its team', () => {
    expect(run('.team | map(@uri) | index("Donn%C3%A9es%20Ops") != null')).toMatchObject({ verdict: 'breaks', evaluation: expect.stringContaining('Données Ops') });
  });

  it('an encoded string that is no team of the org changes nothing', () => {
    expect(run('.team | map(@base64) | index("Tm9ib2R5") != null')?.verdict).toBe('unaffected');
  });

  it('runs a bounded number of teams: where more classes than that remain, a same result is for review, not verified', () => {
    // Each squad's title is a string of its own in the expression: a class each, more than the bound.
    const squads = Array.from({ length: 45 }, (_, i) => JSON.stringify(`Squad ${i}`)).join(', ');
    const teamsRun = new Set<string>();
    const recording: JqEngine = {
      validate: (e) => jq.validate(e),
      evaluate: (input, e) => {
        // A context of one squad alone: one team tried.
        const found = new Set(JSON.stringify(input).match(/Squad \d+/g));
        if (found.size === 1) teamsRun.add([...found][0]!);
        return jq.evaluate(input, e);
      },
    };
    const impact = assessTeamExpression(`.team | length >= 0 or ([${squads}] | length) == 0`, { teams: many, removedRelations, jq: recording, sample: 'entity' });
    expect(teamsRun.size).toBeLessThan(45);
    expect(impact?.verdict).toBe('review');
    expect(impact?.evaluation).toMatch(/\d+ more kinds? of team .* not run/);
  });
});

describe('issue 39: an expression over a change is run with each team on each side alone', () => {
  it('a team given for the first time (none before, one after) is met', () => {
    expect(withJq('(.diff.before.team | length) == 0 and (.diff.after.team | index("Payments") != null)', 'action-run')).toMatchObject({ verdict: 'breaks' });
  });

  it('a team taken away (one before, none after) is met', () => {
    expect(withJq('(.diff.after.team | length) == 0 and (.diff.before.team | index("Payments") != null)', 'action-run')).toMatchObject({ verdict: 'breaks' });
  });

  it('a change compared team with team stays unaffected', () => {
    expect(withJq('.diff.before.team != .diff.after.team', 'action-run')?.verdict).toBe('unaffected');
  });
});

describe('issue 39: which expressions can read teams, by their reads (team-reach.ts)', () => {
  // [expression, whether it may read a team value by more than the team paths it names]
  const rows: [string, boolean][] = [
    ['. as $e | $e | tojson | test("Payments")', true], // a variable bound to the whole input, used whole
    ['.properties.language as $l | $l | ascii_downcase', false], // one bound to a plain value
    ['.properties.tags | map(select(. == "x")) | length', false], // a stage piped from a plain path sees only it
    ['.entity | keys', true],
    ['[.[] | strings]', true],
    ['.results.q1.entities | length', true], // a container handed on is read whole: its length can change between worlds
    ['.entity.relations | has("owning_team")', true], // a relation the migration removes, read through has()
    ['.entity.relations | .owning_team', true],
    ['contains({relations: {owning_team: "x"}})', true], // a builtin on the whole input reads it, whichever builtin
    ['recurse | strings | select(. == "Platform")', true],
    ['.properties.tags | contains(["x"])', false], // on a plain value it sees only that value
    ['.results.q1.entities | tojson', true],
    ['.diff.after', true], // a container as the result itself
    ['.diff.after != null | . as $x | .', false], // a comparison gives only true or false
    ['.diff.before == null', false], // compared with null: there or not
    ['.diff.after == $old', true],
    ['.diff.after != null, . | tojson', true],
  ];
  it.each(rows)('%s → %s', async (expression, reads) => {
    const { readsBeyondFixedPaths } = await import('../../src/judge/team-reach.js');
    expect(readsBeyondFixedPaths(expression)).toBe(reads);
  });
});
