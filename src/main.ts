#!/usr/bin/env node
import { runCli } from './cli.js';
import { credentialRedactor, credentialsFromEnv } from './secrets/credentials.js';
import { terminalSafe } from './terminal-text.js';
import { olderNodeLine } from './node-support.js';
import { ENGINES_NODE } from './version.js';

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

// Ctrl-C or a CI job's timeout: one line, and the shell's code for the signal. Outputs are renamed
// into place only whole (src/output/output-set.ts), so none is cut; the next run on the same --out
// finishes or clears what this one left.
for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
  process.once(signal, () => {
    writeTo(process.stderr)(`teams-migration-audit: stopped by ${signal}; no output was half-written (the previous outputs stay until a run completes)\n`);
    process.exit(code);
  });
}

// Before anything else, so a failure on an untested Node is read with that in mind.
const olderNode = olderNodeLine(process.versions.node, ENGINES_NODE);
if (olderNode !== undefined) writeTo(process.stderr)(olderNode);

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
