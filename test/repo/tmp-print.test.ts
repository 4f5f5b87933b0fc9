import { test } from 'vitest';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { scanRepositories } from '../../src/repo/scan.js';
import { readSnapshotFile } from '../../src/sources/snapshot-file.js';
import { brief } from './helpers.js';
test('print', async () => {
  const dir = process.env.SCAN_DIR ?? 'fixtures/repo';
  const catalog = process.env.NO_ORG ? undefined : buildCatalog(await readSnapshotFile('fixtures/demo-org.json'));
  const scan = await scanRepositories([dir], catalog ? { catalog } : {});
  for (const f of scan.findings) console.log(JSON.stringify({ ...brief([f])[0], ev: f.evidence.slice(0, 80), reason: process.env.REASON ? f.reason : undefined }));
  console.log(JSON.stringify(scan.notes));
});
