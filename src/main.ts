#!/usr/bin/env node
import { runCli } from './cli.js';
import { credentialRedactor, credentialsFromEnv } from './report/redact-credentials.js';
import { terminalSafe } from './terminal-text.js';

// `--help | head`: the reader left, so nothing more can be said to it. Not a crash: the run goes on
// (its reports are still written) and says nothing more on that stream.
const closed = new Set<NodeJS.WriteStream>();
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    closed.add(stream);
  });
}
const writeTo = (stream: NodeJS.WriteStream) => (text: string) => {
  if (!closed.has(stream)) stream.write(text);
};

const withoutCredentials = credentialRedactor(credentialsFromEnv(process.env));

// The only module that touches process: everything else is testable in-process.
const code = await runCli(process.argv.slice(2), {
  stdout: writeTo(process.stdout),
  stderr: writeTo(process.stderr),
  env: process.env,
  now: () => new Date(),
  isTTY: process.stderr.isTTY === true,
}).catch((error: unknown) => {
  const debug = process.argv.includes('--debug');
  writeTo(process.stderr)(
    debug && error instanceof Error
      ? `${withoutCredentials(error.stack ?? error.message)}\n`
      : `teams-migration-audit: unexpected error: ${terminalSafe(withoutCredentials(error instanceof Error ? error.message : String(error)))} (run with --debug for the stack)\n`,
  );
  return 3; // never a pass: the analysis did not complete
});
process.exitCode = code;
