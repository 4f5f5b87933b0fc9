#!/usr/bin/env node
import { runCli } from './cli.js';

// The only module that touches process: everything else is testable in-process.
const code = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  now: () => new Date(),
  isTTY: process.stderr.isTTY === true,
}).catch((error: unknown) => {
  const debug = process.argv.includes('--debug');
  process.stderr.write(
    debug && error instanceof Error
      ? `${error.stack}\n`
      : `teams-migration-audit: unexpected error: ${error instanceof Error ? error.message : String(error)} (run with --debug for the stack)\n`,
  );
  return 3; // never a pass: the analysis did not complete
});
process.exitCode = code;
