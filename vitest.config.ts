import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/build.ts'],
    setupFiles: ['test/support/cleanup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Integration tests spawn real servers; two cores are all CI has.
    maxWorkers: 2,
    // The JSON report lets .ci/run print a plain "N passed, N failed" closing line.
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest-tmp/report.json' },
  },
});
