/**
 * Issue 39: in a half-way org the world an expression runs in is the world of the entities it
 * reads. Blueprint `service` holds team identifiers already, `library` still holds titles (no
 * service flag, or a flag that says not yet, with `ownership` on one blueprint): code written for
 * identifiers over `service` works today, the same code over `library` breaks until the migration
 * reaches it. One entity left holding a title is named as such, not a reason to call
 * identifier-written code broken everywhere.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import type { Finding } from '../../src/model/finding.js';
import type { JsonObject } from '../../src/model/json.js';
import type { EntityRecord, Organization } from '../../src/model/snapshot.js';
import { useJqEngine } from '../support/jq-engine.js';
import { expectedClass, org, TEAMS } from './two-worlds.js';

const jq = useJqEngine();

const FOR_IDENTIFIERS = '.team | index("qa") != null';
const FOR_TITLES = '.team | index("QA") != null';
const NO_TEAM_VALUE = '.team | length';

const ORGANIZATIONS: [string, Organization][] = [
  ['without the service flag', { id: 'org_half', name: 'Half-way org' }],
  ['whose flag says not yet', { id: 'org_half', name: 'Half-way org', featureFlags: [] }],
];

const blueprint = (identifier: string, ownership: boolean): JsonObject => ({
  identifier,
  title: identifier,
  schema: { properties: {} },
  relations: {},
  ...(ownership && { ownership: { type: 'Direct' } }),
  calculationProperties: Object.fromEntries([FOR_IDENTIFIERS, FOR_TITLES, NO_TEAM_VALUE].map((calculation, i) => [`c${i}`, { title: `c${i}`, calculation, type: i === 2 ? 'number' : 'boolean' }])),
});

/** One entity per team, each holding its team as `form` spells it; `straggler`: the entity of QA still holds the title. */
const entitiesOf = (prefix: string, form: 'title' | 'identifier', straggler = false) =>
  TEAMS.map((team) => ({ identifier: `${prefix}-${team.identifier}`, team: [form === 'title' || (straggler && team.name === 'QA') ? team.name : team.identifier] }));

function judged(organization: Organization, entities: Record<string, EntityRecord[]>, withOwnership: readonly string[]): Finding[] {
  const blueprints = Object.keys(entities).map((id) => blueprint(id, withOwnership.includes(id)));
  const report = analyze(buildCatalog(org({ organization, blueprints, entities }), { jq }));
  return [...report.findings, ...(report.verified ?? [])].filter((f) => f.category === 'calculation-property');
}

const verdictOf = (findings: readonly Finding[], blueprintId: string, calculation: string) =>
  findings.find((f) => f.resource.identifier === blueprintId && f.evidence === calculation)?.verdict ?? 'none';

describe.each(ORGANIZATIONS)('a half-way org %s', (_, organization) => {
  let memo: Finding[] | undefined;
  const findings = () => (memo ??= judged(organization, { service: entitiesOf('svc', 'identifier'), library: entitiesOf('lib', 'title') }, ['service']));

  it('the expressions differ between the worlds (checked by running them)', () => {
    expect(expectedClass(jq, 'entity', FOR_IDENTIFIERS)).toBe('changed');
    expect(expectedClass(jq, 'entity', FOR_TITLES)).toBe('changed');
  });

  it('judges code written for identifiers over the blueprint that holds identifiers as working today', () => {
    expect(verdictOf(findings(), 'service', FOR_IDENTIFIERS)).toBe('unaffected');
  });

  it('judges the same code over the blueprint that still holds titles as breaking until the migration', () => {
    expect(verdictOf(findings(), 'library', FOR_IDENTIFIERS)).toBe('breaks');
  });

  it('code written for titles breaks over both', () => {
    expect(verdictOf(findings(), 'service', FOR_TITLES)).toBe('breaks');
    expect(verdictOf(findings(), 'library', FOR_TITLES)).toBe('breaks');
  });

  it('code whose result no team value changes stays unaffected on either', () => {
    expect(verdictOf(findings(), 'service', NO_TEAM_VALUE)).toBe('unaffected');
    expect(verdictOf(findings(), 'library', NO_TEAM_VALUE)).toBe('unaffected');
  });
});

describe('one entity left holding a title, in an org without the flag whose blueprints have ownership', () => {
  let memo: Finding[] | undefined;
  const findings = () => (memo ??= judged(ORGANIZATIONS[0]![1], { service: entitiesOf('svc', 'identifier', true) }, ['service']));

  it('code written for identifiers is not broken everywhere: it works today, and the entity still holding a title is named', () => {
    const finding = findings().find((f) => f.evidence === FOR_IDENTIFIERS);
    expect(finding?.verdict).not.toBe('breaks');
    expect(finding?.reason).toContain('"svc-qa"');
    expect(finding?.reason).toContain('"QA"');
  });

  it('code written for titles still breaks', () => {
    expect(verdictOf(findings(), 'service', FOR_TITLES)).toBe('breaks');
  });

  it('an org whose entities all hold titles stays before the migration: code written for identifiers breaks until it runs', () => {
    const before = judged(ORGANIZATIONS[0]![1], { service: entitiesOf('svc', 'title') }, ['service']);
    expect(before.find((f) => f.evidence === FOR_IDENTIFIERS)?.reason).toContain('apply it with the migration');
  });
});

/** A table of each blueprint's entities filtered by a `$team` rule with these values. */
function filterJudged(organization: Organization, values: readonly string[]): Finding[] {
  const blueprints = ['service', 'library'].map((id) => blueprint(id, id === 'service'));
  const widgets = ['service', 'library'].map((id, i) => ({ id: `w${i}`, type: 'table-entities-explorer', blueprintConfig: { [id]: { filterSettings: { filterBy: { combinator: 'and', rules: [{ property: '$team', operator: 'containsAny', value: [...values] }] } } } } }));
  const report = analyze(buildCatalog(org({ organization, blueprints, entities: { service: entitiesOf('svc', 'identifier'), library: entitiesOf('lib', 'title') }, pages: [{ identifier: 'p', title: 'P', type: 'dashboard', widgets }] }), { jq }));
  return [...report.findings, ...(report.verified ?? [])].filter((f) => f.category === 'page-widget');
}

describe.each(ORGANIZATIONS)('a $team rule in a half-way org %s', (_, organization) => {
  const ruleVerdict = (findings: readonly Finding[], widget: number) => findings.find((f) => f.location.startsWith(`widgets[${widget}]`))?.verdict ?? 'none';

  it('written for identifiers, it works today over the blueprint that holds identifiers and breaks over the one that holds titles', () => {
    const findings = filterJudged(organization, ['qa']);
    expect(ruleVerdict(findings, 0)).toBe('unaffected');
    expect(ruleVerdict(findings, 1)).toBe('breaks');
  });

  it('written for titles, it breaks over both', () => {
    const findings = filterJudged(organization, ['QA']);
    expect(ruleVerdict(findings, 0)).toBe('breaks');
    expect(ruleVerdict(findings, 1)).toBe('breaks');
  });
});

describe('a $team rule over a blueprint with one entity left holding a title', () => {
  it('written for identifiers, it is not broken and names the entity still holding a title', () => {
    const widgets = [{ id: 'w0', type: 'table-entities-explorer', blueprintConfig: { service: { filterSettings: { filterBy: { combinator: 'and', rules: [{ property: '$team', operator: 'containsAny', value: ['qa'] }] } } } } }];
    const report = analyze(buildCatalog(org({ organization: ORGANIZATIONS[0]![1], blueprints: [blueprint('service', true)], entities: { service: entitiesOf('svc', 'identifier', true) }, pages: [{ identifier: 'p', title: 'P', type: 'dashboard', widgets }] }), { jq }));
    const finding = [...report.findings, ...(report.verified ?? [])].find((f) => f.category === 'page-widget');
    expect(finding?.verdict).toBe('unaffected');
    expect(finding?.reason).toContain('"svc-qa" still holds team title "QA"');
  });
});
