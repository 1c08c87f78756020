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

describe('a base file the contents API does not find, in a shallow clone', () => {
  let api: FakeGitHub;
  fakeGitHubEach((started) => {
    api = started;
  });

  /**
   * A PR whose base holds the class list at `classList` (through the symlink cfg -> real when
   * it starts with cfg/), offered by origin only; the API serves the base's files as `served`
   * says. The PR drops idempotentHint and records it: only the base's class list can tell.
   */
  async function run(options: {
    classList: string;
    served: 'all' | 'nothing';
    atBase?: boolean;
    moreAtRoot?: number;
  }) {
    const dir = await tempDir();
    const git = new MemoryGit(dir);
    const config = JSON.stringify({
      policies: ['claude'],
      classList: options.classList,
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
    if (options.atBase !== false) await update();
    const files = await git.workingTree();
    const base = git.offer(files);
    if (options.served === 'all') {
      for (const [path, entry] of Object.entries(files))
        if (typeof entry === 'string') api.setFile(base, path, entry);
      // As GitHub's API answers it: a path through cfg is "not found".
      api.setSymlink(base, 'cfg', 'real');
      // Named to come first: GitHub lists the first 1,000 entries of a folder by name.
      for (let i = 0; i < (options.moreAtRoot ?? 0); i += 1)
        api.setFile(base, `a${String(i).padStart(4, '0')}.txt`, '');
    }
    await writeFile(join(dir, 'spec.json'), JSON.stringify(dropIdempotent(spec)));
    await update();
    git.commitFiles(await git.workingTree());
    const event = pullRequestEvent(1);
    (event.pull_request as { base: { sha: string } }).base.sha = base;
    const action = await runActionInMemory({
      workspace: dir,
      apiUrl: api.url,
      inputs: {},
      event,
      git,
    });
    const report = await reportOf(action.outputs.report);
    return {
      action,
      fetched: git.asked.includes(`fetch ${base}`),
      findings: report.findings.map((f) => `${f.rule}:${f.tool ?? ''}`),
    };
  }

  it('behind a symlinked folder: read at the base commit with git, not taken as absent', async () => {
    const { action, fetched, findings } = await run({
      classList: 'cfg/mcp-tool-classes.json',
      served: 'all',
    });
    expect(fetched).toBe(true);
    expect(action.code, action.stdout).toBe(1);
    expect(findings).toContain('hint-dropped:delete_note');
  });

  it('absent at the base, each folder on its path listed: proved absent, nothing fetched', async () => {
    const { action, fetched, findings } = await run({
      classList: 'real/lists/mcp-tool-classes.json',
      served: 'all',
      atBase: false,
    });
    expect(fetched).toBe(false);
    expect(action.code, action.stdout).toBe(0);
    expect(findings).toContain('tool-added:delete_note');
  });

  it('a root listing cut at 1,000 entries, or a commit the API cannot read: git decides', async () => {
    for (const options of [
      { classList: 'cfg/mcp-tool-classes.json', served: 'all', moreAtRoot: 1_000 },
      { classList: 'mcp-tool-classes.json', served: 'nothing' },
    ] as const) {
      const { action, fetched, findings } = await run(options);
      expect(fetched, JSON.stringify(options)).toBe(true);
      expect(action.code, action.stdout).toBe(1);
      expect(findings).toContain('hint-dropped:delete_note');
    }
  });
});
