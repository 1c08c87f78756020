// The action in this process, for the unit layer: the same runner setup as the bundle run
// (test/support/action.ts: event file, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, INPUT_*), then
// src/action/main.ts's run() with its servers in memory (test/support/in-memory.ts). What it
// prints is what the step's log would show, workflow commands included; its exit code is the one
// @actions/core sets. For the many variants of a rule that need no real process; one end-to-end
// run per feature stays in test/e2e/.
import { run } from '../../src/action/main.js';
import type { ActionRun, ActionRunOptions } from './action.js';
import { runnerSetup } from './action.js';
import { workspaceHelpers } from './action-workspace.js';
export {
  ACTION_CONFIG,
  dropDestructive,
  dropIdempotent,
  fakeGitHubEach,
  quote,
  relaxAddNote,
  reportOf,
  SERVED,
} from './action-workspace.js';
import { inMemory, runCliInMemory } from './in-memory.js';
import type { Git } from '../../src/git.js';
import type { Connect } from '../../src/server/listing.js';
import { noRepository } from './memory-git.js';

/** The variables a runner sets for a step: none of the test process's may leak into a run. */
const RUNNER_VARIABLE = /^(INPUT_|GITHUB_|RUNNER_)/;

/** Collects what is written to `stream` until the returned function restores it. */
function capture(stream: NodeJS.WriteStream, into: string[]): () => void {
  const saved = Object.getOwnPropertyDescriptor(stream, 'write');
  const write = (chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
    into.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString());
    const done = rest.find((arg) => typeof arg === 'function') as (() => void) | undefined;
    done?.();
    return true;
  };
  Object.defineProperty(stream, 'write', { value: write, configurable: true, writable: true });
  return () => {
    if (saved) Object.defineProperty(stream, 'write', saved);
    else Reflect.deleteProperty(stream, 'write');
  };
}

/** process.env as the runner would set it for the step, until the returned function restores it. */
function stepEnvironment(env: Record<string, string>): () => void {
  const saved = { ...process.env };
  for (const name of Object.keys(process.env))
    if (RUNNER_VARIABLE.test(name)) delete process.env[name];
  Object.assign(process.env, env);
  return () => {
    for (const name of Object.keys(process.env)) delete process.env[name];
    Object.assign(process.env, saved);
  };
}

/**
 * The action run in this process as the runner runs it (the same options and result as
 * runAction), in the workspace, its servers served in memory (or through `connect`), its clone
 * `git` (by default none). Runs one at a time: it takes over
 * process.env, the working directory, stdout and the exit code while it runs.
 */
export async function runActionInMemory(
  options: ActionRunOptions & { git?: Git; connect?: Connect },
): Promise<ActionRun> {
  const { env, collect } = await runnerSetup(options);
  const stdout: string[] = [];
  const stderr: string[] = [];
  const cwd = process.cwd();
  const exitCode = process.exitCode;
  process.exitCode = undefined;
  const restoreEnv = stepEnvironment(env);
  const restoreOut = capture(process.stdout, stdout);
  const restoreErr = capture(process.stderr, stderr);
  let code: number | null;
  try {
    process.chdir(options.workspace);
    // The retry pauses are the client's own: the tries, not their pauses, are what is tested.
    await run(
      { ...env },
      {
        connect: options.connect ?? inMemory,
        git: options.git ?? noRepository,
        retryDelays: [0, 0],
      },
    );
    code = Number(process.exitCode ?? 0);
  } finally {
    restoreErr();
    restoreOut();
    restoreEnv();
    process.chdir(cwd);
    process.exitCode = exitCode;
  }
  return collect({ code, stdout: stdout.join(''), stderr: stderr.join('') });
}

/** The checkout helpers of test/support/action-workspace.ts, with the CLI and action in memory. */
export const { basedWorkspace, recordAtHead, recordedClassList, prWorkspace, runIn } =
  workspaceHelpers({
    cli: runCliInMemory,
    action: runActionInMemory,
  });
