import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The run's own temp folder (TMPDIR for every worker and what it spawns), removed at the end;
    // the run fails if a test left anything in the real one (test/support/run-temp-folder.ts).
    globalSetup: ['test/support/run-temp-folder.ts'],
    // Each file runs in a process of its own kind (forks: chdir and seteuid are allowed), and the
    // files of one worker share their modules: jq-wasm, the templates and the sources are loaded
    // once per worker, not once per file, which was most of the suite's time (CONTRIBUTING.md).
    // Every test restores what it changes (cwd, euid, spies), so no file leaks into the next.
    pool: 'forks',
    isolate: false,
    // Two, even on one core: much of the suite waits on Chromium, child processes and sockets.
    maxWorkers: 2,
    // These bounds only catch a hang: no test races them. On one busy core a browser file's steps
    // take several times as long as on a quiet machine, so they are far above any normal run.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // expect.poll waits for what the page or a process will do; its timeout too is only for a hang.
    expect: { poll: { timeout: 30_000 } },
  },
});
