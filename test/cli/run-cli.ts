import { runCli, type CliIo } from '../../src/cli.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run the CLI in-process with captured output and a fixed clock; `io` replaces either, or adds a seam. */
export async function runCliCaptured(argv: string[], env: Record<string, string | undefined> = {}, io: Partial<CliIo> = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    env,
    now: () => new Date('2026-01-02T03:04:05Z'),
    ...io,
  });
  return { code, stdout, stderr };
}
