// The action's base read when the contents API cannot answer: git at the base commit, fetched
// from origin when the clone lacks it (the checkout's default depth), never "no base". The action
// in this process, servers and the clone in memory (test/support/memory-git.ts); the real
// `git fetch` of a shallow clone runs in test/e2e/action-base.test.ts.
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pullRequestEvent } from '../support/action.js';
import {
  basedWorkspace,
  fakeGitHubEach,
  reportOf,
  runActionInMemory,
  SERVED,
} from '../support/action-in-memory.js';
import { ACTION_CONFIG, dropIdempotent } from '../support/action-workspace.js';
import { notesSpec, tempDir } from '../support/cli.js';
import { DEFAULT_HEAD_SHA, type FakeGitHub } from '../support/github-api.js';
import { runCliInMemory } from '../support/in-memory.js';
import { MemoryGit } from '../support/memory-git.js';

const OTHER_SHA = '1f0c3a9d5e7b2c4a6f8e0d1c3b5a7f9e2d4c6b8a';
const config = { policies: ['claude'], servers: { notes: SERVED } };

describe('a push whose before the API does not hold', () => {
  let api: FakeGitHub;
  fakeGitHubEach((started) => {
    api = started;
  });

  /** The workspace at the PR's commit; its base commit is only at origin. */
  async function shallowClone(): Promise<{ dir: string; git: MemoryGit; base: string }> {
    const dir = await tempDir();
    const git = new MemoryGit(dir);
    let base = '';
    // The API serves the base files at another commit only: for this one it says "not there".
    await basedWorkspace(api, dir, config, {
      sha: OTHER_SHA,
      beforePr: async () => {
        base = git.offer(await git.workingTree());
      },
    });
    git.commitFiles(await git.workingTree());
    return { dir, git, base };
  }

  function push(dir: string, git: MemoryGit, before: string) {
    const event = { before, after: DEFAULT_HEAD_SHA, ref: 'refs/heads/main' };
    return runActionInMemory({
      workspace: dir,
      apiUrl: api.url,
      inputs: {},
      event,
      eventName: 'push',
      git,
    });
  }

  it('fetches the commit from origin and compares with it: the dropped hint fails', async () => {
    const { dir, git, base } = await shallowClone();
    const run = await push(dir, git, base);
    expect(git.asked).toContain(`fetch ${base}`);
    expect(run.code, run.stdout).toBe(1);
    const report = await reportOf(run.outputs.report);
    expect(report.findings.map((f) => `${f.rule}:${f.tool}`)).toContain('hint-dropped:delete_note');
  });

  it('a commit origin does not have either is an error naming the failed fetch', async () => {
    const { dir, git } = await shallowClone();
    const missing = 'ab'.repeat(20);
    const run = await push(dir, git, missing);
    expect(run.code, run.stdout).toBe(1);
    expect(run.outputs.result).toBe('error');
    expect(run.stdout).toContain(
      `the commit before this push ${missing.slice(0, 12)} is not in this clone (fetching it failed: fatal: remote error: upload-pack: not our ref ${missing})`,
    );
  });
});

describe('a base class list behind a symlinked folder, in a shallow clone', () => {
  let api: FakeGitHub;
  fakeGitHubEach((started) => {
    api = started;
  });

  it('is read at the base commit with git, not taken as absent from the API: the dropped hint fails', async () => {
    const dir = await tempDir();
    const git = new MemoryGit(dir);
    // The base: the class list in real/, named through cfg -> real by the config.
    const config = JSON.stringify({
      policies: ['claude'],
      classList: 'cfg/mcp-tool-classes.json',
      servers: { notes: SERVED },
    });
    await mkdir(join(dir, '.github'), { recursive: true });
    await mkdir(join(dir, 'real'));
    await symlink('real', join(dir, 'cfg'));
    await writeFile(join(dir, ACTION_CONFIG), config);
    const spec = await notesSpec();
    await writeFile(join(dir, 'spec.json'), JSON.stringify(spec));
    const update = async () => {
      const run = await runCliInMemory(['update'], { cwd: dir, git });
      expect(run.code, run.stderr).toBe(0);
    };
    await update();
    const base = git.offer(await git.workingTree());
    // The API at the base: the files, and cfg as the symlink it is (a path through it is "not found").
    const files = await git.workingTree();
    for (const [path, entry] of Object.entries(files))
      if (typeof entry === 'string') api.setFile(base, path, entry);
    api.setSymlink(base, 'cfg', 'real');
    // The PR drops idempotentHint and records it: only the base's class list can tell.
    await writeFile(join(dir, 'spec.json'), JSON.stringify(dropIdempotent(spec)));
    await update();
    git.commitFiles(await git.workingTree());
    const event = pullRequestEvent(1);
    (event.pull_request as { base: { sha: string } }).base.sha = base;
    const run = await runActionInMemory({
      workspace: dir,
      apiUrl: api.url,
      inputs: {},
      event,
      git,
    });
    expect(git.asked).toContain(`fetch ${base}`);
    expect(run.code, run.stdout).toBe(1);
    const report = await reportOf(run.outputs.report);
    expect(report.findings.map((f) => `${f.rule}:${f.tool}`)).toContain('hint-dropped:delete_note');
  });
});
