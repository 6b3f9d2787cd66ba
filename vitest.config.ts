import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';
import { SlowFirstSequencer } from './test/support/slow-first-sequencer.js';

const require = createRequire(import.meta.url);

// Fast tests (`*.test.ts`) and whole-stack tests (`*.e2e.ts`) run in one command;
// one PostgreSQL server is started for the run and every suite gets its own database.
export default defineConfig({
  resolve: {
    // graphql 16 ships ESM (`module`) and CJS (`main`); Node and the CommonJS Apollo
    // packages load the CJS build, so the tests must too or schemas come from two realms.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.e2e.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['reflect-metadata'],
    pool: 'forks',
    // A worker process runs file after file without reloading the application's modules for each:
    // loading them (Apollo, type-graphql, MikroORM, the contracts) cost seconds of CPU per file.
    // Every file still starts its own stack on its own database; none changes process-wide state
    // it does not restore.
    isolate: false,
    sequence: { sequencer: SlowFirstSequencer },
    // Servers a test starts from main.ts run as one process (several HTTP workers are tested by name).
    env: { WEB_CONCURRENCY: '1' },
    // Whole-stack files wait on PostgreSQL and sockets more than they compute: three files at a
    // time keep both cores of the reference machine busy (the default is one file per core minus one).
    maxWorkers: 3,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    teardownTimeout: 60_000,
  },
});
