import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // jq-wasm compiles its module once per worker; a few workers keep the suite quick on 2 cores.
    pool: 'forks',
    // These bounds only catch a hang: no test races them. On one busy core a browser file's steps
    // take several times as long as on a quiet machine, so they are far above any normal run.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // expect.poll waits for what the page or a process will do; its timeout too is only for a hang.
    expect: { poll: { timeout: 30_000 } },
  },
});
