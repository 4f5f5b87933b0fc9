import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { loadJqEngine } from '../../src/jq/engine.js';
import type { Report } from '../../src/model/finding.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';

let report: Report;
beforeAll(async () => {
  const snapshot = JSON.parse(await readFile(new URL('../../fixtures/demo-org.json', import.meta.url), 'utf8')) as OrgSnapshot;
  report = analyze(buildCatalog(snapshot, { jq: await loadJqEngine() }));
});
const at = (identifier: string, location: string) =>
  report.findings.find((f) => f.resource.identifier === identifier && f.location === location);
const verifiedAt = (identifier: string, location: string) =>
  report.verified?.find((f) => f.resource.identifier === identifier && f.location === location);

describe('the demo org exercises every jq verdict path', () => {
  it('breaks: a title literal, with the rewrite', () => {
    expect(at('service', 'calculationProperties.platform_owned.calculation')).toMatchObject({ verdict: 'breaks', rewrite: '.team | index("platform") != null' });
  });

  it('breaks: a removed relation, replaced by .team', () => {
    expect(at('repository', 'calculationProperties.owner_ids.calculation')).toMatchObject({ verdict: 'breaks', rewrite: '.team | join(",")' });
  });

  it('review: a value people read turns from titles into identifiers (substituted, shown)', () => {
    expect(at('service', 'calculationProperties.owner_list.calculation')?.verdict).toBe('review');
  });

  it('breaks: an identifier before the migration starts matching once teams are identifiers', () => {
    expect(at('restart_pods', 'trigger.userInputs.properties.skip_drain.visible.jqQuery')).toMatchObject({ verdict: 'breaks', reason: expect.stringContaining('written for team identifiers') });
  });

  it('unaffected: team values compared only with each other; verified, not findings', () => {
    expect(verifiedAt('restart_pods', 'trigger.userInputs.properties.force.visible.jqQuery')?.verdict).toBe('unaffected');
    expect(report.findings.some((f) => f.verdict === 'unaffected')).toBe(false);
  });

  it('a note, no finding: invalid jq touching teams fails alike in both worlds; the note has its place and jq\'s message (issue 39)', async () => {
    // The demo with one calculation jq does not compile: a note (the demo itself has none, so its page keeps its first screen).
    const snapshot = JSON.parse(await readFile(new URL('../../fixtures/demo-org.json', import.meta.url), 'utf8')) as OrgSnapshot;
    const environment = snapshot.blueprints.find((b) => b.identifier === 'environment') as { calculationProperties: Record<string, unknown> };
    environment.calculationProperties.primary_owner = { title: 'Primary owner', calculation: '.team[0] | ascii_downcase)', type: 'string' };
    const withInvalid = analyze(buildCatalog(snapshot, { jq: await loadJqEngine() }));
    const location = 'calculationProperties.primary_owner.calculation';
    expect([...withInvalid.findings, ...(withInvalid.verified ?? [])].filter((f) => f.location === location)).toEqual([]);
    expect(withInvalid.findings.length).toBe(report.findings.length);
    expect(withInvalid.notes?.filter((note) => note.includes(`blueprint "environment" ${location}`))).toEqual([
      expect.stringMatching(/^calculation-property: blueprint "environment" calculationProperties\.primary_owner\.calculation: not judged: Calculation property "primary_owner": it does not compile as jq, .*\(jq: error: syntax error, unexpected[^\n]*\)$/),
    ]);
  });

  it('no finding: invalid jq that never touches teams, and prose mentioning .team', () => {
    expect(at('environment', 'calculationProperties.region_code.calculation')).toBeUndefined();
    expect(report.findings.filter((f) => f.resource.identifier === 'restart_pods').map((f) => f.location)).not.toContain(
      'trigger.userInputs.properties.force.description',
    );
    expect(report.findings.some((f) => f.evidence.includes('Ask your .team lead'))).toBe(false);
  });
});
