import { defineConfig } from 'vitest/config';

// Fast tests (`*.test.ts`) and whole-stack tests (`*.e2e.ts`) run in one command;
// one PostgreSQL server is started for the run and every suite gets its own database.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.e2e.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['reflect-metadata'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    teardownTimeout: 60_000,
    reporters: ['default'],
  },
});
