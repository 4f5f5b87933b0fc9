import { describe, expect, it } from 'vitest';
import { createBaseline } from '../../src/baseline/baseline.js';
import { gateReport } from '../../src/gate-run.js';
import { CATEGORIES, RESOURCE_TYPES } from '../../src/model/finding.js';
import { renderJson } from '../../src/report/json.js';
import { demoReport, FILE_FINDING } from '../ci/helpers.js';
import { validate, type Schema } from '../ci/json-schema.js';
import { REPORT_SCHEMA } from '../ci/schemas.js';

async function demoJson(): Promise<unknown> {
  const report = demoReport([FILE_FINDING]);
  // Accept a few findings and leave a stale entry, so the optional fields appear too.
  const baseline = createBaseline(report, { failOn: 'manual' }, 'alice');
  baseline.accepted = [...baseline.accepted.slice(0, 3), { id: '0000000000000000', reason: 'gone', by: 'bob' }];
  const { report: gated } = await gateReport(report, { failOn: 'manual', failOnVerdict: 'review' }, baseline, {});
  return JSON.parse(renderJson(gated));
}

const defs = REPORT_SCHEMA.$defs as Record<string, Schema>;
const propertiesOf = (schema: Schema | undefined) => Object.keys((schema?.properties as Record<string, unknown> | undefined) ?? {});

describe('schemas/report.schema.json', () => {
  it('validates the demo org report, with accepted findings, a gate and stale ids', async () => {
    const document = (await demoJson()) as { findings: { accepted?: unknown }[]; gate: { staleBaselineIds?: string[] } };
    expect(document.findings.some((f) => f.accepted)).toBe(true);
    expect(document.gate.staleBaselineIds).toEqual(['0000000000000000']);
    expect(validate(REPORT_SCHEMA, document)).toEqual([]);
  });

  it('declares every key the report emits, so the schema stays a complete description', async () => {
    const document = (await demoJson()) as Record<string, unknown> & { findings: Record<string, unknown>[]; gate: Record<string, unknown> };
    expect(propertiesOf(REPORT_SCHEMA)).toEqual(expect.arrayContaining(Object.keys(document)));
    const findingKeys = new Set(document.findings.flatMap((f) => Object.keys(f)));
    expect(propertiesOf(defs.finding)).toEqual(expect.arrayContaining([...findingKeys]));
    expect(propertiesOf(defs.gate)).toEqual(expect.arrayContaining(Object.keys(document.gate)));
  });

  it('knows exactly the categories and resource types of the model', () => {
    expect((defs.category as { enum: string[] }).enum).toEqual([...CATEGORIES]);
    const resource = (defs.finding?.properties as Record<string, Schema>).resource as Schema;
    expect(((resource.properties as Record<string, Schema>).type as { enum: string[] }).enum).toEqual([...RESOURCE_TYPES]);
  });

  it('rejects a report with a renamed field or a wrong kind', async () => {
    const document = (await demoJson()) as { findings: Record<string, unknown>[] };
    const [first] = document.findings;
    if (!first) throw new Error('findings expected');
    first.suggestions = first.suggestion;
    delete first.suggestion;
    first.kind = 'automatic-ish';
    const messages = validate(REPORT_SCHEMA, document).map((e) => `${e.path}: ${e.message}`);
    expect(messages).toContain('$.findings[0]: missing required property "suggestion"');
    expect(messages.some((m) => m.startsWith('$.findings[0].kind: expected one of'))).toBe(true);
  });
});
