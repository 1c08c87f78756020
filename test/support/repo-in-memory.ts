// A repository for the unit layer: a real working tree in a temporary folder, its git in memory
// (test/support/memory-git.ts), and the CLI run in this process inside it (servers in memory).
// What an e2e test does with `git init`, `git commit` and the built CLI, with no process.
import { expect } from 'vitest';
import { runCliInMemory } from './in-memory.js';
import { MemoryGit } from './memory-git.js';
import { tempDir, type Run } from './cli.js';

export interface MemoryRepository {
  /** The working tree, the repository's root. */
  dir: string;
  git: MemoryGit;
  /** The CLI run in `dir` (or in `cwd`, a folder of it), its git this repository's. */
  cli(args: string[], cwd?: string): Promise<Run>;
  /** `check --format json` with the config auditor.yml, against the base commit HEAD. */
  checkAtHead(...args: string[]): Promise<Run>;
  /** `update` with the config auditor.yml, which must succeed. */
  update(): Promise<void>;
}

/** An empty repository (no commit yet) in a new temporary folder. */
export async function memoryRepository(): Promise<MemoryRepository> {
  const dir = await tempDir();
  const git = new MemoryGit(dir);
  const cli = (args: string[], cwd = dir) => runCliInMemory(args, { cwd, git });
  return {
    dir,
    git,
    cli,
    checkAtHead: (...args) =>
      cli(['check', '--format', 'json', '--config', 'auditor.yml', '--base-ref', 'HEAD', ...args]),
    update: async () => {
      const run = await cli(['update', '--config', 'auditor.yml']);
      expect(run.code, run.stderr).toBe(0);
    },
  };
}
