// How often a run asks git for the repository's root: each question is a `git` process started,
// and where the server answers at once it is waited on. check asks once, beside reading the
// config (it asked twice, one after the other, once the config was read); the action asks once
// for both the repository's root and the root the class list's path is taken from: the same
// question of the same folder, which it asked twice.
import { describe, expect, it } from 'vitest';
import type { Git } from '../../src/git.js';
import { runActionInMemory } from '../support/action-in-memory.js';
import { EXAMPLE, exampleRepo } from '../support/cli.js';
import { runCliInMemory } from '../support/in-memory.js';
import { noRepository } from '../support/memory-git.js';

/** A git outside any repository that counts the top-level questions it is asked. */
function counting(): { git: Git; asked: () => number } {
  let asked = 0;
  const git: Git = {
    ...noRepository,
    topLevel(cwd) {
      asked += 1;
      return noRepository.topLevel(cwd);
    },
  };
  return { git, asked: () => asked };
}

const example = ['--server-name', 'notes', '--', process.execPath, EXAMPLE];

describe('the repository root, asked of git', () => {
  it('once by check, and not at all by list', async () => {
    const dir = await exampleRepo();
    const check = counting();
    const checked = await runCliInMemory(['check', ...example], { cwd: dir, git: check.git });
    expect(checked.code, checked.stderr).toBe(0);
    expect(check.asked()).toBe(1);
    const list = counting();
    const listed = await runCliInMemory(['list', ...example], { cwd: dir, git: list.git });
    expect(listed.code, listed.stderr).toBe(0);
    expect(list.asked()).toBe(0);
  });

  it('once by the action in check mode, for the repository and for the class list path', async () => {
    const dir = await exampleRepo();
    const { git, asked } = counting();
    const run = await runActionInMemory({
      workspace: dir,
      inputs: { command: `${process.execPath} ${EXAMPLE}`, 'server-name': 'notes' },
      event: { ref: 'refs/heads/main', before: '0'.repeat(40), commits: [] },
      eventName: 'push',
      git,
    });
    expect(run.code, run.stdout).toBe(0);
    expect(asked()).toBe(1);
  });
});
