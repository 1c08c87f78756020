// Setup of the unit project: the layer starts no process. Anything that tries (a test that runs
// the CLI or a fixture server, an engine call without the in-memory connection) fails at once
// with where it belongs, instead of making the fast layer slow and load-sensitive.
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';

const STARTERS = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'];

for (const name of STARTERS)
  Object.assign(childProcess, {
    [name]: () => {
      throw new Error(
        `child_process.${name}: the unit layer starts no process. Pass connect: inMemory (test/support/in-memory.ts) to run the engine in memory, or move the test to test/e2e/.`,
      );
    },
  });
// The named imports (import { spawn } from 'node:child_process') follow the default export.
syncBuiltinESMExports();
