import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** This step's folder, made once: every file the step hands on (outputs) is written in it. */
let made: Promise<string> | undefined;

/**
 * Where this step writes the files its outputs name (the report, the rules file): a fresh folder
 * of its own under RUNNER_TEMP, so that a second step of the auditor in the same job cannot
 * replace what the first step's outputs point at.
 */
export function stepFile(env: NodeJS.ProcessEnv, name: string): Promise<string> {
  made ??= (async () => {
    const parent = join(env.RUNNER_TEMP ?? tmpdir(), 'mcp-annotation-auditor');
    await mkdir(parent, { recursive: true });
    return mkdtemp(join(parent, 'step-'));
  })();
  // A failure to make it is reported where the file is written; the next write tries again.
  made.catch(() => (made = undefined));
  return made.then((dir) => join(dir, name));
}
