import { beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import type { Report } from '../../src/model/finding.js';
import { validateSnapshot } from '../../src/sources/validate-snapshot.js';
import { demoSnapshotJson } from '../ci/helpers.js';
import { useJqEngine } from '../support/jq-engine.js';

const jq = useJqEngine();

/*
 * Issue 31: a "why" that shows a value before and after the migration never shows the same value
 * twice. A team value that keeps its title (a template writing ["Platform Team"]) gives the same
 * text in both worlds; the sentence says it stays a title and what it must become instead.
 */
const PAIRS = [
  /gives (.+?) with team titles but (.+?) with team identifiers/,
  /: (.+?) before, (.+?) after\)/,
  /gives (.+?) today and starts giving (.+?) once teams are identifiers/,
  /\((?:for .+?: )?(.+?) with titles, (.+?) with identifiers\)/,
];

describe('why sentences', () => {
  let report: Report;
  let reasons: string[];
  beforeAll(() => {
    report = analyze(buildCatalog(validateSnapshot(demoSnapshotJson(), 'demo'), { jq }));
    reasons = [...report.findings, ...(report.verified ?? [])].map((f) => f.reason);
  });

  it('never put the same value before and after', () => {
    let pairs = 0;
    for (const reason of reasons) {
      for (const pattern of PAIRS) {
        const match = pattern.exec(reason);
        if (!match) continue;
        pairs++;
        expect(match[1], reason).not.toBe(match[2]);
      }
    }
    expect(pairs).toBeGreaterThan(5);
  });

  it('a template that writes a team title in both worlds says it stays a title, and what it must hold', () => {
    const template = report.findings.find((f) => f.evidence.includes('if .inputs.critical then ["SRE On-Call"]'));
    expect(template?.verdict).toBe('breaks');
    expect(template?.reason).toContain('it gives ["Platform Team"] whether teams are titles or identifiers');
    expect(template?.reason).toContain('where it must hold ["platform"] after the migration');
  });
});
