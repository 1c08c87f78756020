import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Three layers, each a project (`vitest run --project unit`, or npm run test:unit and the like):
// - unit (and unit-fresh, its files that need the engine compiled afresh): pure modules and the
//   engine in one process over in-memory connections
//   (test/support/in-memory.ts); no build, no process spawned, seconds in all.
// - e2e: the built CLI and action as a user runs them, with real fixture servers; the bundle is
//   built once per run (test/support/build.ts). A test file left at the top of test/ runs here,
//   so a new file is never silently skipped before it is placed in a layer.
// - oracle: the real Claude Code against the class list's rules (test/oracle/).
const built = ['test/support/build.ts'];
// The unit layer's transformed modules, kept on disk between runs (node_modules/
// .experimental-vitest-cache, keyed by each file's content): a second run skips most of the
// transform. Not in CI, where every run is a fresh clone: writing the cache only costs there.
const moduleCache = { fsModuleCache: !process.env.CI };
const FRESH = ['test/unit/scale.test.ts'];

/**
 * Vitest's order (projects by name, then the longest or largest file first), except that the
 * unit-fresh files start before the unit files, not after: each is a process of its own, so it
 * runs beside the shared unit workers instead of alone at the end of the layer (scale.test.ts
 * was the last seconds of npm run test:unit, one core idle).
 */
class FreshFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const fresh = sorted.filter((spec) => spec.project.name === 'unit-fresh');
    const rest = sorted.filter((spec) => spec.project.name !== 'unit-fresh');
    const at = rest.findIndex((spec) => spec.project.name === 'unit');
    rest.splice(at === -1 ? rest.length : at, 0, ...fresh);
    return rest;
  }
}

export default defineConfig({
  test: {
    setupFiles: ['test/support/cleanup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Integration tests spawn real servers; two cores are all CI has.
    maxWorkers: 2,
    // The JSON report lets .ci/run print a plain "N passed, N failed" closing line.
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest-tmp/report.json' },
    sequence: { sequencer: FreshFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          exclude: FRESH,
          setupFiles: ['test/support/no-process.ts'],
          experimental: moduleCache,
          // One module graph per worker, not per file: most of the layer's time was each file
          // importing the engine afresh. The files share no state but what they restore (the
          // working directory, process.env and the streams a run takes over; see in-memory.ts).
          isolate: false,
        },
      },
      {
        extends: true,
        // The unit files that need the engine compiled afresh: scale.test.ts counts the blocks V8
        // runs, and V8 counts blocks only in functions compiled after counting starts, so the
        // engine another file of a shared graph loaded first would go uncounted.
        test: {
          name: 'unit-fresh',
          include: FRESH,
          setupFiles: ['test/support/no-process.ts'],
          experimental: moduleCache,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts', 'test/*.test.ts'],
          // One worker runs file after file, as the unit layer does: a fresh worker for each of
          // some 35 files was about 7 s of the layer's 143 s of CPU. What a file changes (the
          // working directory, process.env) it restores; each file's temporary folders are its own.
          isolate: false,
          globalSetup: built,
        },
      },
      {
        extends: true,
        test: { name: 'oracle', include: ['test/oracle/**/*.test.ts'], globalSetup: built },
      },
    ],
  },
});
