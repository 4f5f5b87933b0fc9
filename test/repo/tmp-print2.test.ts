import { test } from 'vitest';
import { analyze } from '../../src/analyze.js';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { repositoryFindings } from '../../src/repo/report-input.js';
import { readSnapshotFile } from '../../src/sources/snapshot-file.js';
test('print', async () => {
  const catalog = buildCatalog(await readSnapshotFile('fixtures/repo-corpus-org.json'));
  const report = analyze(catalog, await repositoryFindings(['fixtures/repo-corpus'], catalog));
  for (const f of report.findings) console.log(`F ${f.location} ${f.category} ${f.verdict} | ${f.evidence.slice(0, 70).replace(/\n/g, ' ')} | ${f.rewrite ?? ''}`);
  for (const f of report.verified ?? []) console.log(`V ${f.location} ${f.category} ${f.verdict}`);
  for (const n of report.notes ?? []) console.log(`N ${n}`);
  for (const n of report.incomplete ?? []) console.log(`I ${n.resource} ${n.reason}`);
});
