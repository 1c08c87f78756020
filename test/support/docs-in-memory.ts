// The docs' commands in this process (test/unit/docs-commands.test.ts): as runCliInMemory runs
// the CLI, with one more twin a reader's command needs, the example server named by a path
// relative to the folder the command runs in (`node examples/notes/server.mjs`, as the docs
// write it), served in memory as the example is.
import { realpathSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { runCli as runCommands } from '../../src/cli/commands.js';
import { describeError } from '../../src/errors.js';
import { noWorkflowCommands } from '../../src/escape.js';
import type { Git } from '../../src/git.js';
import type { Connect } from '../../src/server/listing.js';
import { EXAMPLE, type Run } from './cli.js';
import { inMemory } from './in-memory.js';
import { noRepository } from './memory-git.js';

const real = (path: string): string | undefined => {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
};

/** inMemory, with a relative path to the example server (a symlink to it included) as the example. */
const connect: Connect = (target, era) => {
  if (target.kind !== 'stdio') return inMemory(target, era);
  const [script, ...rest] = target.spawn.args;
  if (script === undefined || isAbsolute(script)) return inMemory(target, era);
  const path = real(resolve(target.spawn.cwd ?? process.cwd(), script));
  if (path === undefined || path !== real(EXAMPLE)) return inMemory(target, era);
  return inMemory({ ...target, spawn: { ...target.spawn, args: [EXAMPLE, ...rest] } }, era);
};

/** One command of the CLI as src/cli.ts runs it, in `cwd`, its clone `git` (by default none). */
export async function runDocsCommand(
  args: string[],
  options: { cwd: string; git?: Git },
): Promise<Run> {
  const before = process.cwd();
  const pwd = process.env.PWD;
  process.chdir(options.cwd);
  process.env.PWD = options.cwd;
  try {
    const result = await runCommands(args, { connect, git: options.git ?? noRepository });
    return {
      code: result.exitCode,
      stdout: noWorkflowCommands(result.stdout),
      stderr: noWorkflowCommands(result.stderr),
    };
  } catch (error) {
    return { code: 2, stdout: '', stderr: `mcp-annotation-auditor: ${describeError(error)}\n` };
  } finally {
    process.chdir(before);
    if (pwd === undefined) delete process.env.PWD;
    else process.env.PWD = pwd;
  }
}
