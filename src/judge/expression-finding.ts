import type { Catalog } from '../catalog/catalog.js';
import type { Category, FindingDraft } from '../model/finding.js';
import { describeImpact, type AssessOptions, type ExpressionImpact } from './team-impact.js';
import { judgeOf } from './expression-memo.js';
import { unknownIdentifierHint } from '../catalog/teams.js';
import type { ExpressionSite, SampleKind, Sink } from '../model/sites.js';
import { keptTeamRelations } from '../catalog/resources.js';
import { allDerivedTeamProperties, teamIdentifierMirrors } from './team-valued.js';
import { judgeSite, partOfWhole, SITE_TABLE, stateAt } from './decision-table.js';
import { migratedEntities, stragglersSaid } from '../catalog/entity-world.js';

export type { ExpressionSite };

/**
 * Where each category's values go, unless the site says: conditions and permissions decide who
 * may do what; the rest is read by people. A value that becomes a team is a team value.
 */
function defaultSink(site: ExpressionSite, setsTeam: boolean): Sink {
  if (site.sink) return site.sink;
  if (setsTeam) return 'team-value';
  if (site.category === 'action-dynamic-permission') return 'gate';
  if (site.category === 'action-user-input' || site.category === 'page-widget') {
    return /(?:^|\.)(?:visible|required|disabled|dataset)(?:\.|$)/.test(site.location) ? 'gate' : 'shown';
  }
  if (site.category === 'action-mapping' && site.location.startsWith('trigger.condition')) return 'gate';
  return 'shown';
}

/** A gate that lets people in when it holds: a policy's condition, an input's `visible`. */
const lettingIn = (site: ExpressionSite) => site.category === 'action-dynamic-permission' || /(?:^|\.)visible\.jqQuery$/.test(site.location);

/**
 * What each category's expressions run on, so jq can run them on a sample. Integration and
 * webhook mappings read an external payload we cannot sample; they are judged by reading only.
 */
const SAMPLE_KIND: Partial<Record<Category, SampleKind>> = {
  'calculation-property': 'entity',
  'action-user-input': 'user-input',
  'page-widget': 'user-input',
  'action-dynamic-permission': 'policy',
  'action-mapping': 'action-run',
};

/** A calculation is never handed its own value: its contexts hold its blueprint's other calculations only. */
function ownValueLeftOut(derived: ReadonlyMap<string, string>, site: ExpressionSite): ReadonlyMap<string, string> {
  const own = site.category === 'calculation-property' ? [...derived].find(([, calculation]) => calculation === site.expression)?.[0] : undefined;
  return own === undefined ? derived : new Map([...derived].filter(([name]) => name !== own));
}

/**
 * The finding for one jq expression, or nothing when the migration does not touch it. All jq
 * bearing rules go through here, so reasons, verdicts and rewrites read the same everywhere.
 */
export function expressionFinding(catalog: Catalog, site: ExpressionSite, options: AssessOptions = {}): FindingDraft | undefined {
  const sample = site.sample ?? SAMPLE_KIND[site.category];
  const state = stateAt(catalog, site.blueprint);
  const impact = judgeOf(catalog)(
    site.expression,
    {
      teams: catalog.teams,
      removedRelations: site.removedRelations,
      teamRelations: keptTeamRelations(catalog),
      // Its blueprint's where it names one (a mirror another blueprint holds is no field of its entities:
      // a whole-value read would meet a title there that its entities never hold), else every blueprint's.
      identifierProperties: teamIdentifierMirrors(catalog, site.blueprint),
      titleProperties: teamIdentifierMirrors(catalog, site.blueprint, '$title'),
      derivedProperties: ownValueLeftOut(allDerivedTeamProperties(catalog, site.blueprint), site),
      ...(catalog.jq && { jq: catalog.jq }),
      ...(sample && { sample }),
      migrated: state.migrated,
      ...(state.stateUnknown !== undefined && { stateUnknown: state.stateUnknown }),
      ...(site.teamProperties && { teamProperties: site.teamProperties }),
      ...(site.teamInputs && site.teamInputs.size > 0 && { teamInputs: site.teamInputs }),
      ...(site.blueprint !== undefined && catalog.entities.has(site.blueprint) && { entities: catalog.entities.get(site.blueprint) }),
      // Only gates that let people in can shut them out: a policy, an input's `visible` (a
      // `required` or `disabled` that never holds keeps nobody from anything). Admins run and
      // approve whatever a policy says, so a dead policy never shuts them out.
      ...(lettingIn(site) && { deadGate: { people: catalog.people, adminsPass: site.category === 'action-dynamic-permission' } }),
    },
    { ...options, sink: defaultSink(site, options.setsTeam ?? false) },
  );
  if (!impact) return undefined;
  if (impact.jqError !== undefined) {
    return {
      category: site.category,
      resource: site.resource,
      location: site.location,
      evidence: site.expression,
      reason: `${site.subject}: ${SITE_TABLE['does-not-compile'].why}`,
      suggestion: 'Fix the expression for its own sake: jq does not compile it.',
      verdict: judgeSite('does-not-compile'),
      note: impact.jqError,
      noteOnly: true,
    };
  }
  const described = describeImpact(impact);
  const setsTeam = options.setsTeam ? (site.teamDestination ?? 'sets the team meta property, which must hold team identifiers after the migration') : '';
  // A half-way blueprint's entities left in the other world are where its result still differs.
  const world = impact.class !== undefined && impact.class !== 'same' ? migratedEntities(catalog, site.blueprint) : undefined;
  const stragglers = world && stragglersSaid(world, site.blueprint!);
  const reason = `${site.subject} ${[setsTeam, described].filter(Boolean).join('; ')}.${[impact.postscript, stragglers].filter((said) => said !== undefined).map((said) => ` ${said}`).join('')}`;

  const unknown = impact.titles.filter((t) => t.identifier === undefined).map((t) => t.title);
  let suggestion: string;
  // A dead gate's titles are not what is wrong with it: no rewrite to identifiers is offered.
  const rewrite = impact.deadGate ? undefined : impact.rewrite;
  if (impact.advice !== undefined && rewrite === undefined) {
    suggestion = impact.advice;
  } else if (impact.rewrite !== undefined) {
    suggestion = `Change it to: ${impact.rewrite}`;
    if (unknown.length > 0) suggestion += ` (${unknownIdentifierHint(unknown)})`;
  } else if (impact.rejectedRewrite !== undefined) {
    // Never offered to copy: jq would reject it. The edits still are right, so name them.
    suggestion = `Make these edits: ${impact.rejectedRewrite.edits.join(', ')}`;
    suggestion += `, and check the result compiles (applied as written here it does not: ${impact.rejectedRewrite.error})`;
    suggestion += unknown.length > 0 ? `; ${unknownIdentifierHint(unknown)}.` : '.';
  } else if (impact.removedRelations.length > 0) {
    // Found by running or through a variable, the read has no certain edit: it is said, not offered to copy.
    const relations = impact.removedRelations.map((r) => `"${r}"`).join(', ');
    const titles = impact.titles.flatMap((t) => (t.identifier !== undefined ? [`${JSON.stringify(t.title)} → ${JSON.stringify(t.identifier)}`] : []));
    suggestion = `Read .team (the teams the relation turns into) instead of relation ${relations}, which the migration removes`;
    if (titles.length > 0) suggestion += `, and replace team titles with identifiers (${titles.join(', ')})`;
    suggestion += unknown.length > 0 ? `; ${unknownIdentifierHint(unknown)}.` : '.';
  } else if (unknown.length > 0) {
    suggestion = `Replace the title with the team's identifier: ${unknownIdentifierHint(unknown)}.`;
  } else if (impact.verdict === 'unaffected' && impact.class !== undefined) {
    suggestion = 'Nothing to change: run on the org\'s teams, it does what it did before the migration.';
  } else if (impact.verdict === 'review' && impact.class === 'substituted') {
    suggestion = 'Check that whoever reads the value takes team identifiers, or map identifiers to titles where titles are wanted (the _team entities hold both); then accept it in the baseline.';
  } else if (impact.verdict === 'unaffected') {
    suggestion = 'Nothing to change: it already compares team identifiers. Keep it in mind if titles are added later.';
  } else if (impact.verdict === 'breaks' && options.setsTeam) {
    suggestion = 'Make the expression yield team identifiers: the value it sets changes with the migration (see why).';
  } else if (impact.verdict === 'breaks') {
    suggestion = 'Make it give the intended result with team identifiers (see why); where titles are needed, read them from the _team entities.';
  } else if (options.setsTeam) {
    suggestion = 'Make sure the expression yields team identifiers, not titles (map titles to identifiers, or read the identifier from the source).';
  } else {
    suggestion = 'Check what the expression does with the team values: after the migration they are team identifiers, not titles.';
  }

  if (impact.jqFailure !== undefined) suggestion = `Make sure the expression terminates: jq could not evaluate it. ${suggestion}`;

  const draft: FindingDraft = {
    category: site.category,
    resource: site.resource,
    location: site.location,
    evidence: site.expression,
    reason,
    suggestion,
    verdict: impact.verdict,
  };
  if (impact.deadGate) draft.deadGate = impact.deadGate;
  if (rewrite !== undefined && impact.rewrite !== undefined) {
    draft.rewrite = impact.rewrite;
    draft.rewriteCompiles = impact.rewriteChecked === true;
    if (impact.rewriteProof) {
      draft.rewriteProof = impact.rewriteProof.proof;
      if (impact.rewriteProof.proof === 'suggested' && catalog.jq) draft.suggestion += ` This rewrite is a suggestion, not proven: ${impact.rewriteProof.where}.`;
    }
  }
  const note = noteFor(impact, catalog.jq !== undefined);
  if (note !== undefined) draft.note = note;
  return draft;
}

/** Whether jq accepts the expression; without jq loaded only our lexer's opinion is known. */
function noteFor(impact: ExpressionImpact, jqLoaded: boolean): string | undefined {
  if (impact.jqFailure !== undefined) {
    const what = impact.jqFailure.failure === 'timeout' ? 'jq evaluation timed out' : 'jq crashed';
    return `${what} (${impact.jqFailure.error}); the expression may loop or recurse without end, check it by hand`;
  }
  if (impact.lexError === undefined) return undefined;
  return jqLoaded ? `jq compiles it, but this tool's lexer could not read it (${impact.lexError}); check it by hand` : `not valid jq: ${impact.lexError}`;
}

/**
 * Issue 39: a condition is judged whole. An automation's condition combines its expressions with its
 * combinator; where the combination gives the same result before the migration and after it (an `or`
 * of a title's test and its identifier's), none of its expressions is a change, whatever each does alone.
 */
export function wholeCondition(catalog: Catalog, site: Omit<ExpressionSite, 'expression'>, combinator: unknown, parts: readonly { location: string; expression: string }[], findings: readonly FindingDraft[]): FindingDraft[] {
  // An `and` is left to its expressions: one whose change another hides lets nobody through there, which is no condition that keeps working.
  const joint = combinator === 'or' ? ' or ' : undefined;
  const locations = new Set(parts.map((part) => part.location));
  const flagged = findings.some((finding) => locations.has(finding.location) && finding.verdict !== judgeSite('condition-holds'));
  // Only running tells: without jq a combination read alone proves nothing.
  if (joint === undefined || parts.length < 2 || !flagged || !catalog.jq) return [...findings];
  const whole = expressionFinding(catalog, { ...site, expression: parts.map((part) => `(${part.expression})`).join(joint) });
  if (whole === undefined || whole.verdict !== judgeSite('condition-holds')) return [...findings];
  return findings.map((finding) => {
    if (!locations.has(finding.location) || finding.verdict === judgeSite('condition-holds')) return finding;
    const reason = `${site.subject} is one expression of an "${String(combinator)}" condition that, as a whole, gives the same result before the migration and after it.`;
    return partOfWhole(finding, 'condition-holds', reason, 'Nothing to change: the condition as a whole keeps working.');
  });
}
