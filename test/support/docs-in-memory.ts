// The docs' commands in this process (test/unit/docs-commands.test.ts): as runCliInMemory runs
// the CLI, with one more twin a reader's command needs, the example server named by a path
// relative to the folder the command runs in (`node examples/notes/server.mjs`, as the docs
// write it), served in memory as the example is.
import { realpathSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { Git } from '../../src/git.js';
import type { Connect } from '../../src/server/listing.js';
import { EXAMPLE, type Run } from './cli.js';
import { inMemory, runCliInMemory } from './in-memory.js';

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
export function runDocsCommand(args: string[], options: { cwd: string; git?: Git }): Promise<Run> {
  return runCliInMemory(args, { ...options, connect });
}
