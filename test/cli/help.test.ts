import { describe, expect, it } from 'vitest';
import { runCliCaptured } from './run-cli.js';

/** The lines of one titled block of a help text ("Examples:", "Exit codes:"), up to the next blank line. */
function block(help: string, title: string): string[] {
  const start = help.split('\n').indexOf(title);
  if (start === -1) return [];
  const rest = help.split('\n').slice(start + 1);
  const end = rest.findIndex((line) => line.trim() === '');
  return end === -1 ? rest : rest.slice(0, end);
}

describe('--help teaches each command: what it does, an example, its exit codes', () => {
  for (const args of [[], ['analyze'], ['snapshot']]) {
    it(`${['teams-migration-audit', ...args].join(' ')} --help`, async () => {
      const run = await runCliCaptured([...args, '--help']);
      expect(run.code).toBe(0);
      const examples = block(run.stdout, 'Examples:');
      expect(examples.length).toBeGreaterThan(0);
      for (const line of examples) expect(line).toMatch(/^ {2}\$ .*teams-migration-audit (analyze|snapshot) /);
      const codes = block(run.stdout, 'Exit codes:');
      expect(codes.map((line) => line.trim().slice(0, 2))).toEqual(expect.arrayContaining(['0 ', '2 ', '3 ']));
    });
  }

  it('the overview starts with the demo, which needs nothing but the installed tool', async () => {
    const run = await runCliCaptured(['--help']);
    expect(block(run.stdout, 'Examples:')[0]).toMatch(/^ {2}\$ teams-migration-audit analyze --demo\b/);
  });

  it('snapshot --help says what --strict does to a snapshot (there is no report to note things in), analyze --help what it does to the report', async () => {
    const flat = (text: string) => text.replace(/\s+/g, ' ');
    const snapshot = flat((await runCliCaptured(['snapshot', '--help'])).stdout);
    expect(snapshot).toContain('--strict stop (exit 2) at the first value of an unexpected shape; without it the snapshot is written and each such value is named in a note: line on stderr');
    expect(snapshot).not.toContain('in the report');
    expect(flat((await runCliCaptured(['analyze', '--help'])).stdout)).toContain('--strict stop (exit 2) at the first value of an unexpected shape instead of noting it in the report');
  });

  it('snapshot --help says what its exit codes mean for a snapshot, and lists only the variables it reads', async () => {
    const run = await runCliCaptured(['snapshot', '--help']);
    const codes = block(run.stdout, 'Exit codes:').join('\n');
    expect(codes).toMatch(/0 +the snapshot is written/);
    expect(codes).not.toMatch(/gate/);
    expect(run.stdout).not.toContain('GITHUB_STEP_SUMMARY');
    expect(run.stdout).not.toContain('GITHUB_ACTIONS');
    expect(run.stdout).toContain('PORT_TOKEN');
  });
});
