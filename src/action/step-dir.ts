import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { confinedPath, runnerTempRoot } from '../confined.js';

/** This step's folder, made once: every file the step hands on (outputs) is written in it. */
let made: Promise<string> | undefined;

/** A new step begins (run() is one step): its files go in a folder of its own. */
export function newStep(): void {
  made = undefined;
}

/**
 * Where this step writes the files its outputs name (the report, the rules file): a fresh folder
 * of its own under RUNNER_TEMP, so that a second step of the auditor in the same job cannot
 * replace what the first step's outputs point at.
 */
export async function stepFile(
  env: NodeJS.ProcessEnv,
  name: string,
  what: string,
): Promise<string> {
  // Nothing is made through a link planted under RUNNER_TEMP (by a server, an earlier step):
  // the folder the steps share is checked as the file would be, before any folder is made.
  const parent = join(env.RUNNER_TEMP ?? tmpdir(), 'mcp-annotation-auditor');
  await confinedPath(join(parent, name), await runnerTempRoot(env), what);
  made ??= (async () => {
    await mkdir(parent, { recursive: true });
    return mkdtemp(join(parent, 'step-'));
  })();
  // A failure to make it is reported where the file is written; the next write tries again.
  made.catch(() => (made = undefined));
  return join(await made, name);
}
