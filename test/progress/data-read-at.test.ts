import { copyFileSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/model/finding.js';
import { run, tempDir, withSandbox } from '../live/harness.js';
import { runCliCaptured } from '../cli/run-cli.js';

const EPOCH = '1767225600'; // 2026-01-01T00:00:00Z
const readReport = (dir: string) => JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;

describe('report.run.dataReadAt: when the judged data was read', () => {
  it('a live run records its start (SOURCE_DATE_EPOCH honoured); a snapshot records it as recordedAt, and its analysis reports that time', async () => {
    await withSandbox({}, async (sandbox, clock) => {
      const env = { PORT_TOKEN: sandbox.token, SOURCE_DATE_EPOCH: EPOCH };
      const out = await tempDir();
      expect((await run(['analyze', '--api-url', sandbox.url, '--out', out, '--fail-on', 'none', '--quiet'], env, clock)).code).toBe(0);
      expect(readReport(out).run?.dataReadAt).toEqual('2026-01-01T00:00:00.000Z');

      const dir = await tempDir();
      const file = join(dir, 'org.json');
      expect((await run(['snapshot', '--api-url', sandbox.url, '--out', file, '--quiet'], env, clock)).code).toBe(0);
      expect((JSON.parse(readFileSync(file, 'utf8')) as { recordedAt: string }).recordedAt).toBe('2026-01-01T00:00:00.000Z');
      // Analysed later (another clock): the data is as old as the recording, not the analysis.
      const later = await tempDir();
      expect((await runCliCaptured(['analyze', '--snapshot', file, '--out', later, '--fail-on', 'none', '--quiet'], { SOURCE_DATE_EPOCH: '1800000000' })).code).toBe(0);
      expect(readReport(later).run?.dataReadAt).toEqual('2026-01-01T00:00:00.000Z');
      // Rewriting the snapshot keeps its recording time.
      const rewritten = join(dir, 'again.json');
      expect((await runCliCaptured(['snapshot', file, '--out', rewritten, '--quiet'], { SOURCE_DATE_EPOCH: '1800000000' })).code).toBe(0);
      expect((JSON.parse(readFileSync(rewritten, 'utf8')) as { recordedAt: string }).recordedAt).toBe('2026-01-01T00:00:00.000Z');
    });
  });

  it('--since dates progress by the previous report\'s dataReadAt, not by when its file was copied', async () => {
    const before = await tempDir();
    const snapshot = join(before, 'before.json');
    const org = JSON.parse(readFileSync('fixtures/migration-before.json', 'utf8')) as Record<string, unknown>;
    writeFileSync(snapshot, JSON.stringify({ ...org, recordedAt: '2026-01-01T09:30:00.000Z' }));
    expect((await runCliCaptured(['analyze', '--snapshot', snapshot, '--out', before, '--fail-on', 'none', '--quiet'])).code).toBe(0);
    // Downloaded today: a new modification time.
    const copy = join(await tempDir(), 'report.json');
    copyFileSync(join(before, 'report.json'), copy);
    utimesSync(copy, new Date('2030-05-05T00:00:00Z'), new Date('2030-05-05T00:00:00Z'));
    const after = await tempDir();
    const second = await runCliCaptured(['analyze', '--snapshot', 'fixtures/migration-after.json', '--since', copy, '--out', after, '--fail-on', 'none']);
    expect(second.code).toBe(0);
    expect(readReport(after).progress?.since.date).toBe('2026-01-01T09:30:00.000Z');
    expect(second.stderr).toContain('since 2026-01-01');
    expect(second.stderr).not.toContain('2030-05-05');
  });

  it('a snapshot with no recording time gives no date: progress names none rather than a wrong one', async () => {
    const before = await tempDir();
    expect((await runCliCaptured(['analyze', '--snapshot', 'fixtures/migration-before.json', '--out', before, '--fail-on', 'none', '--quiet'])).code).toBe(0);
    expect(readReport(before).run?.dataReadAt).toBeUndefined();
    const after = await tempDir();
    expect((await runCliCaptured(['analyze', '--snapshot', 'fixtures/migration-after.json', '--since', join(before, 'report.json'), '--out', after, '--fail-on', 'none', '--quiet'])).code).toBe(0);
    expect(readReport(after).progress?.since.date).toBeUndefined();
  });
});
