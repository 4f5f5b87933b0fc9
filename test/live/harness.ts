import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliIo } from '../../src/cli.js';
import { runCliCaptured, type CliRun } from '../cli/run-cli.js';
import type { OrgSnapshot } from '../../src/model/snapshot.js';
import { createFakeClock, type FakeClock } from '../helpers/fake-clock.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../sandbox/server.js';

export const FIXTURE = new URL('../fixtures/live-org.json', import.meta.url).pathname;
export const DEMO_ORG = new URL('../../fixtures/demo-org.json', import.meta.url).pathname;

export async function loadFixture(path = FIXTURE): Promise<OrgSnapshot> {
  return JSON.parse(await readFile(path, 'utf8')) as OrgSnapshot;
}

export type Run = CliRun;

/** runCli in-process with captured output and a fake clock shared with the sandbox. */
export function run(argv: string[], env: Record<string, string>, clock: FakeClock, extra: Partial<CliIo> = {}): Promise<Run> {
  return runCliCaptured(argv, env, { now: clock.date, sleep: clock.sleep, ...extra });
}

export async function withSandbox<T>(
  options: Partial<SandboxOptions>,
  body: (sandbox: Sandbox, clock: FakeClock) => Promise<T>,
): Promise<T> {
  const clock = createFakeClock();
  const sandbox = await startSandbox({ snapshot: await loadFixture(), now: clock.now, idleTimeoutMs: 30_000, ...options });
  try {
    return await body(sandbox, clock);
  } finally {
    await sandbox.close();
  }
}

export const tempDir = () => mkdtemp(join(tmpdir(), 'tma-live-'));
export const readText = (path: string) => readFile(path, 'utf8');

/**
 * A report without the notes only a live fetch writes (permissions it skips: permission-plan.ts),
 * so a live report compares with the report of the same org read from a file.
 */
export function withoutFetchNotes(reportText: string): unknown {
  const report = JSON.parse(reportText) as { notes?: string[]; fixes?: { files: { kind: string }[] }; run?: unknown; orgTeams?: { owning?: unknown; named?: unknown } };
  const notes = (report.notes ?? []).filter((note) => !/^permissions of \d+ (automations?|entity pages?) not read: /.test(note));
  if (notes.length > 0) report.notes = notes;
  else delete report.notes;
  // Bulk payloads need every entity of a relation-ownership blueprint, which a live run does not read
  // (the kit's README says so); a file holds them. Everything else of the kit must match.
  if (report.fixes) report.fixes.files = report.fixes.files.filter((file) => file.kind !== 'bulk-upsert');
  // The run id digests what each run read (a live run reads fewer entities than the file holds), and
  // when the data was read differs between a live read and a file by definition.
  delete report.run;
  // Likewise orgTeams' entity counts and permission sites (a live run reads neither the entities
  // nor the permissions no rule needs); its teams, _team entities and members must match.
  if (report.orgTeams) {
    delete report.orgTeams.owning;
    delete report.orgTeams.named;
  }
  return report;
}
