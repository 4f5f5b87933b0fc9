import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // jq-wasm compiles its module once per worker; a few workers keep the suite quick on 2 cores.
    pool: 'forks',
    testTimeout: 20_000,
  },
});
