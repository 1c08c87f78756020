import { enableCompileCache } from './compile-cache.js';
import { getErrorMessage } from './errors.js';
import { holdYoungGeneration } from './heap.js';
import { onUncaught } from './last-resort.js';
import { prestartForAction } from './action/early.js';
import { stopEveryServer } from './server/early.js';
import { exitOnceWritten } from './server/process.js';

/** The action's entry: the early start (see action/early.ts), then run(). */
async function main(): Promise<void> {
  prestartForAction(process.env);
  // After the server's start, before the bulk of the action loads (the cache serves that load).
  enableCompileCache(process.env);
  try {
    const { run } = await import('./action/main.js');
    // Once the modules are loaded: from here on, what survives is the audit's (see heap.ts).
    await holdYoungGeneration();
    await run(process.env);
  } finally {
    // Whatever went wrong after the audit (publish failing too), no server outlives the step.
    await stopEveryServer();
  }
}

// An error nothing caught fails the step, said in one filtered line (see last-resort.ts).
onUncaught(1);

// run() reports every failure of the audit itself; what is left is the runner's own files failing
// under it (an output or summary file that cannot be written). Said in one line, not a stack.
void main()
  .catch(async (error: unknown) => {
    // Loaded here only: the entry stays small (see action/early.ts).
    const { noWorkflowCommands } = await import('./escape.js');
    process.stderr.write(
      noWorkflowCommands(
        `mcp-annotation-auditor: the action could not write its results: ${getErrorMessage(error)}\n`,
      ),
    );
    process.exitCode = 1;
  })
  .then(exitOnceWritten);
