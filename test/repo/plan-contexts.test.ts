import { afterAll, expect, test } from 'vitest';
import { readFile, rm } from 'node:fs/promises';
import { buildCatalog } from '../../src/catalog/build-catalog.js';
import { loadJqEngine, type JqEngine } from '../../src/jq/engine.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';
import { scanRepositories } from '../../src/repo/scan.js';
import { temporaryRepository } from './helpers.js';

const engines: JqEngine[] = [];
let dir: string | undefined;
afterAll(async () => {
  await Promise.all(engines.map((engine) => engine.close?.()));
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A stack whose second calculation reads one derived from team values: its contexts hold what the first gives. */
const reader = (i: number) =>
  [
    `resource "port_blueprint" "svc${i}" {`,
    `  identifier = "svc${i}"`,
    `  calculation_properties = {`,
    `    owners_text = { title = "Owners", type = "string", calculation = "[.team[] | ascii_downcase] | join(\\", \\")" }`,
    `    platform    = { title = "Platform", type = "boolean", calculation = ".properties.owners_text | ascii_upcase | startswith(\\"P${i}\\")" }`,
    `  }`,
    `}`,
  ].join('\n');

test('the second plan judges on the contexts the first built and filled: it asks jq to fill none of its own (issue 41)', async () => {
  dir = await temporaryRepository({ 'infra/a/main.tf': reader(1), 'infra/b/main.tf': reader(2) });
  const real = await loadJqEngine({ workers: 1 });
  engines.push(real);
  // A plan's work lists what to compile; the judge's own requests (a context's calculations filled, all at once) do not.
  let plans = 0;
  const fills: number[] = [];
  const jq: JqEngine = {
    validate: real.validate,
    evaluate: real.evaluate,
    prefetch: (work) => {
      if (work.validate) plans++;
      else fills[plans] = (fills[plans] ?? 0) + 1;
      real.prefetch!(work);
    },
  };
  const snapshot = JSON.parse(await readFile('fixtures/demo-org.json', 'utf8')) as OrgSnapshot;
  const scan = await scanRepositories([dir], { catalog: buildCatalog(snapshot, { jq }), orgGiven: true });
  expect(scan.findings.some((finding) => finding.reason.includes('reads .properties.owners_text'))).toBe(true);
  // What the calculations do with team values, the first plan, the second: three plans' work.
  expect(plans).toBe(3);
  // The first plan fills the contexts the derived calculation's reader is judged on; with a team
  // directory of its own, the second filled them all again.
  expect(fills[1]).toBeGreaterThan(0);
  expect(fills[2] ?? 0).toBe(0);
});
