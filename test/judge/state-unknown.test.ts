/**
 * Issue 39, item 5: where nothing tells whether the org has migrated (repository files alone), a
 * value written for identifiers is right if it has and breaks if not: the decision table's
 * `unknown` state makes it a review, the reason saying why the state is unknown.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { useJqEngine } from '../support/jq-engine.js';
import { org } from './two-worlds.js';

const jq = useJqEngine();

const snapshot = org({
  actions: [
    {
      identifier: 'create',
      title: 'Create',
      trigger: { type: 'self-service', operation: 'DAY-2', blueprintIdentifier: 'service', userInputs: { properties: {} } },
      invocationMethod: { type: 'UPSERT_ENTITY', blueprintIdentifier: 'service', mapping: { identifier: '{{ .inputs.name }}', team: '{{ if (.entity.team | length) > 0 then ["qa"] else ["data_science"] end }}' } },
    },
  ],
});

const finding = (stateUnknown?: string) => {
  const catalog = buildCatalog(snapshot, { jq });
  const report = analyze(stateUnknown === undefined ? catalog : { ...catalog, stateUnknown });
  return report.findings.find((f) => f.location === 'invocationMethod.mapping.team');
};

describe('a value written for identifiers, by the org\'s state', () => {
  it('not migrated: it breaks until the migration runs', () => {
    expect(finding()?.verdict).toBe('breaks');
  });

  it('unknown: a review whose reason ends saying why nothing tells', () => {
    const found = finding('no file says whether the org has migrated');
    expect(found?.verdict).toBe('review');
    expect(found?.suggestion).toContain('apply it with the migration');
    expect(found?.reason).toMatch(/\. No file says whether the org has migrated: if it has, it is right as it is \(give --snapshot or a live org to decide\)\.$/);
  });
});
