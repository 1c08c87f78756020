// What the action compares a PR with: the base is read at the base commit by repository path as
// written (a symlink the PR commits cannot move it), the approval label is the base's, merge
// queue and push runs compare with the base their event names, and each step's report is its own.
import { execFile } from 'node:child_process';
import { mkdir, readFile, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pullRequestEvent, TOKEN } from '../support/action.js';
import { runIn } from '../support/action-workspace.js';
import { notesSpec, runCli, SERVERS, tempDir, withAnnotations } from '../support/cli.js';
import {
  DEFAULT_BASE_SHA,
  DEFAULT_HEAD_SHA,
  startGitHubApi,
  type FakeGitHub,
} from '../support/github-api.js';

const exec = promisify(execFile);
type Spec = Awaited<ReturnType<typeof notesSpec>>;
const CONFIG = '.github/mcp-annotation-auditor.yml';
const OTHER_SHA = '1f0c3a9d5e7b2c4a6f8e0d1c3b5a7f9e2d4c6b8a';

/** The server entry that serves `spec.json` of the folder the server runs in. */
const served = { command: 'node', args: [join(SERVERS, 'configurable.mjs'), 'spec.json'] };

/** Only the diff with the base catches it: delete_note loses idempotentHint. */
function dropIdempotent(spec: Spec): Spec {
  return withAnnotations(spec, 'delete_note', { idempotentHint: undefined });
}

interface Report {
  result: string;
  findings: { rule: string; tool?: string; approved?: boolean }[];
}

async function reportOf(path: string | undefined): Promise<Report> {
  return JSON.parse(await readFile(path ?? '', 'utf8')) as Report;
}

/**
 * In `dir` (the server's folder `at`, under the repository's root `dir`): the config, the base
 * spec and the class list update records, each served by the API at `sha` under `prefix`; then
 * the PR's spec, with the dropped hint recorded.
 */
async function basedWorkspace(
  api: FakeGitHub,
  dir: string,
  config: Record<string, unknown>,
  options: { at?: string; sha?: string; classList?: string; beforePr?: () => Promise<void> } = {},
): Promise<void> {
  const { at = '', sha = DEFAULT_BASE_SHA, classList = 'mcp-tool-classes.json' } = options;
  const root = join(dir, at);
  const prefix = at ? `${at}/` : '';
  const spec = await notesSpec();
  await mkdir(join(root, '.github'), { recursive: true });
  await mkdir(join(root, classList, '..'), { recursive: true });
  const configText = JSON.stringify(config);
  await writeFile(join(root, CONFIG), configText);
  await writeFile(join(root, 'spec.json'), JSON.stringify(spec));
  const update = async () => {
    const run = await runCli(['update'], { cwd: join(dir, at) });
    expect(run.code, run.stderr).toBe(0);
  };
  await update();
  api.setFile(sha, `${prefix}${CONFIG}`, configText);
  api.setFile(sha, `${prefix}${classList}`, await readFile(join(root, classList), 'utf8'));
  await options.beforePr?.();
  await writeFile(join(dir, at, 'spec.json'), JSON.stringify(dropIdempotent(spec)));
  await update();
}

describe('the action reads the base at the base commit', () => {
  let api: FakeGitHub;
  beforeEach(async () => {
    api = await startGitHubApi({ token: TOKEN });
  });
  afterEach(async () => {
    expect(api.responseViolations).toEqual([]);
    await api.close();
  });

  it('a class list folder the PR turns into a symlink to a new folder is still compared', async () => {
    const dir = await tempDir();
    const config = {
      policies: ['claude'],
      classList: 'mcp/classes.json',
      servers: { notes: served },
    };
    await basedWorkspace(api, dir, config, {
      classList: 'mcp/classes.json',
      beforePr: async () => {
        await rename(join(dir, 'mcp'), join(dir, 'mcp2'));
        await symlink('mcp2', join(dir, 'mcp'));
      },
    });
    const run = await runIn(api, dir, {});
    expect(run.code, run.stdout).toBe(1);
    const report = await reportOf(run.outputs.report);
    expect(report.findings.map((f) => `${f.rule}:${f.tool}`)).toContain('hint-dropped:delete_note');
  });

  it('a working-directory the PR turns into a symlink to another folder is read as named', async () => {
    const dir = await tempDir();
    const config = { policies: ['claude'], servers: { notes: served } };
    await basedWorkspace(api, dir, config, {
      at: 'server',
      beforePr: async () => {
        await rename(join(dir, 'server'), join(dir, 'server-v2'));
        await symlink('server-v2', join(dir, 'server'));
      },
    });
    const run = await runIn(api, dir, { 'working-directory': 'server' });
    expect(run.code, run.stdout).toBe(1);
    const report = await reportOf(run.outputs.report);
    expect(report.findings.map((f) => `${f.rule}:${f.tool}`)).toContain('hint-dropped:delete_note');
    expect(api.requests.map((r) => decodeURIComponent(r.path))).toContain(
      '/repos/octo-org/octo-repo/contents/server/mcp-tool-classes.json',
    );
  });
});

describe('the approval label', () => {
  let api: FakeGitHub;
  afterEach(async () => {
    expect(api.responseViolations).toEqual([]);
    await api.close();
  });

  it("is the base config's: a PR that renames it to a label it carries approves nothing", async () => {
    api = await startGitHubApi({
      token: TOKEN,
      pulls: { 1: { baseSha: DEFAULT_BASE_SHA, headSha: DEFAULT_HEAD_SHA, labels: ['wip'] } },
    });
    const dir = await tempDir();
    const config = {
      policies: ['claude'],
      approveLabel: 'annotations-approved',
      servers: { notes: served },
    };
    await basedWorkspace(api, dir, config, {
      beforePr: () =>
        writeFile(join(dir, CONFIG), JSON.stringify({ ...config, approveLabel: 'wip' })),
    });
    const run = await runIn(api, dir, {}, { event: pullRequestEvent(1, ['wip']) });
    expect(run.code, run.stdout).toBe(1);
    const report = await reportOf(run.outputs.report);
    const dropped = report.findings.find((f) => f.rule === 'hint-dropped');
    expect(dropped?.approved ?? false).toBe(false);
    expect(run.stdout).toContain(
      `::warning::approveLabel "wip" in the PR's config takes effect once merged: the label that approves this run is "annotations-approved", the base commit's.`,
    );
    // The base's label still approves.
    api.pulls.set(1, {
      baseSha: DEFAULT_BASE_SHA,
      headSha: DEFAULT_HEAD_SHA,
      labels: ['annotations-approved'],
    });
    const approved = await runIn(
      api,
      dir,
      {},
      { event: pullRequestEvent(1, ['annotations-approved']) },
    );
    expect(approved.code, approved.stdout).toBe(0);
  });
});

describe('merge queue and push runs', () => {
  let api: FakeGitHub;
  beforeEach(async () => {
    api = await startGitHubApi({ token: TOKEN });
  });
  afterEach(async () => {
    expect(api.responseViolations).toEqual([]);
    await api.close();
  });

  const config = { policies: ['claude'], servers: { notes: served } };

  it('a merge_group run compares with merge_group.base_sha', async () => {
    const dir = await tempDir();
    await basedWorkspace(api, dir, config, { sha: OTHER_SHA });
    const event = { merge_group: { base_sha: OTHER_SHA, head_sha: DEFAULT_HEAD_SHA } };
    const run = await runIn(api, dir, {}, { event, eventName: 'merge_group' });
    expect(run.code, run.stdout).toBe(1);
    const report = await reportOf(run.outputs.report);
    expect(report.findings.map((f) => `${f.rule}:${f.tool}`)).toContain('hint-dropped:delete_note');
  });

  it("a push run compares with the event's before", async () => {
    const dir = await tempDir();
    await basedWorkspace(api, dir, config, { sha: OTHER_SHA });
    const event = { before: OTHER_SHA, after: DEFAULT_HEAD_SHA, ref: 'refs/heads/main' };
    const run = await runIn(api, dir, {}, { event, eventName: 'push' });
    expect(run.code, run.stdout).toBe(1);
    const report = await reportOf(run.outputs.report);
    expect(report.findings.map((f) => `${f.rule}:${f.tool}`)).toContain('hint-dropped:delete_note');
  });

  it('a push that creates its branch says in the summary that no base comparison was made, and why', async () => {
    const dir = await tempDir();
    await basedWorkspace(api, dir, config, { sha: OTHER_SHA });
    const event = { before: '0'.repeat(40), after: DEFAULT_HEAD_SHA, ref: 'refs/heads/new' };
    const run = await runIn(api, dir, {}, { event, eventName: 'push' });
    expect(run.code, run.stdout).toBe(0);
    expect(run.summary).toContain(
      "No base comparison was made: this push creates the branch (the event's before is the all-zero commit id)",
    );
  });

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
      const config = { policies: ['claude'], servers: { notes: served } };
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

describe('a config file without servers', () => {
  it('takes the servers from .mcp.json, as the CLI does', async () => {
    const api = await startGitHubApi({ token: TOKEN });
    try {
      const dir = await tempDir();
      await writeFile(join(dir, 'spec.json'), JSON.stringify(await notesSpec()));
      await writeFile(join(dir, '.mcp.json'), JSON.stringify({ mcpServers: { notes: served } }));
      const update = await runCli(['update'], { cwd: dir });
      expect(update.code, update.stderr).toBe(0);
      await mkdir(join(dir, '.github'));
      const waiver = { rule: 'tool-added', tool: 'add_note', reason: 'reviewed' };
      const configText = JSON.stringify({ waivers: [waiver] });
      await writeFile(join(dir, CONFIG), configText);
      // The waiver is the base's too: a new one would be config-relaxed.
      api.setFile(DEFAULT_BASE_SHA, CONFIG, configText);
      const run = await runIn(api, dir, { comment: 'never' });
      expect(run.code, run.stdout).toBe(0);
      expect(run.stdout).toContain(`Servers from .mcp.json (${CONFIG} lists none).`);
      expect(run.outputs['tool-count']).toBe('3');
    } finally {
      await api.close();
    }
  });
});
