// What the action compares a PR with: the base is read at the base commit by repository path as
// written (a symlink the PR commits cannot move it), the approval label is the base's, merge
// queue and push runs compare with the base their event names, and each step's report is its own.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { TOKEN } from '../support/action.js';
import {
  basedWorkspace,
  fakeGitHubEach,
  reportOf,
  runIn,
  SERVED,
} from '../support/action-workspace.js';
import { tempDir } from '../support/cli.js';
import { DEFAULT_HEAD_SHA, startGitHubApi, type FakeGitHub } from '../support/github-api.js';

const exec = promisify(execFile);
const OTHER_SHA = '1f0c3a9d5e7b2c4a6f8e0d1c3b5a7f9e2d4c6b8a';

describe('merge queue and push runs', () => {
  let api: FakeGitHub;
  fakeGitHubEach((started) => {
    api = started;
  });

  const config = { policies: ['claude'], servers: { notes: SERVED } };

  it('a push whose before is not in the clone, nor at the API, is an error that says what to fetch', async () => {
    const dir = await tempDir();
    await basedWorkspace(api, dir, config, { sha: OTHER_SHA });
    await exec('git', ['init', '-q'], { cwd: dir });
    const missing = 'ab'.repeat(20);
    const event = { before: missing, after: DEFAULT_HEAD_SHA, ref: 'refs/heads/main' };
    const run = await runIn(api, dir, {}, { event, eventName: 'push' });
    expect(run.code, run.stdout).toBe(1);
    expect(run.outputs.result).toBe('error');
    expect(run.stdout).toContain(
      `the commit before this push ${missing.slice(0, 12)} is not in this clone`,
    );
    expect(run.stdout).toContain(`git fetch --depth=1 origin ${missing}`);
  });
});

describe('two steps of the action in one job', () => {
  it('each write a report of their own, which their report output names', async () => {
    const api = await startGitHubApi({ token: TOKEN });
    try {
      const dir = await tempDir();
      const config = { policies: ['claude'], servers: { notes: SERVED } };
      await basedWorkspace(api, dir, config);
      const runnerTemp = await tempDir();
      const env = { RUNNER_TEMP: runnerTemp };
      const failing = await runIn(api, dir, { comment: 'never' }, { env });
      expect(failing.code, failing.stdout).toBe(1);
      const passing = await runIn(api, dir, { comment: 'never', 'fail-on': 'never' }, { env });
      expect(passing.code, passing.stdout).toBe(0);
      expect(failing.outputs.report).not.toBe(passing.outputs.report);
      expect(failing.outputs.report?.startsWith(runnerTemp)).toBe(true);
      expect((await reportOf(failing.outputs.report)).result).toBe('failed');
      expect((await reportOf(passing.outputs.report)).result).toBe('passed');
    } finally {
      await api.close();
    }
  });
});
