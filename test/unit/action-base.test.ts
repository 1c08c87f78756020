// What the action compares a PR with: the base is read at the base commit by repository path as
// written (a symlink the PR commits cannot move it), the approval label is the base's, merge
// queue and push runs compare with the base their event names, and each step's report is its own.
// In this process, servers in memory (test/support/action-in-memory.ts); what needs the bundle or
// real processes stays in test/e2e/action-base.test.ts.
import { mkdir, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pullRequestEvent, TOKEN } from '../support/action.js';
import {
  ACTION_CONFIG,
  basedWorkspace,
  fakeGitHubEach,
  reportOf,
  runIn,
  SERVED,
} from '../support/action-in-memory.js';
import { notesSpec, tempDir } from '../support/cli.js';
import { runCliInMemory as runCli } from '../support/in-memory.js';
import {
  DEFAULT_BASE_SHA,
  DEFAULT_HEAD_SHA,
  startGitHubApi,
  type FakeGitHub,
} from '../support/github-api.js';

const OTHER_SHA = '1f0c3a9d5e7b2c4a6f8e0d1c3b5a7f9e2d4c6b8a';

describe('the action reads the base at the base commit', () => {
  let api: FakeGitHub;
  fakeGitHubEach((started) => {
    api = started;
  });

  it('a class list folder the PR turns into a symlink to a new folder is still compared', async () => {
    const dir = await tempDir();
    const config = {
      policies: ['claude'],
      classList: 'mcp/classes.json',
      servers: { notes: SERVED },
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
    const config = { policies: ['claude'], servers: { notes: SERVED } };
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
      servers: { notes: SERVED },
    };
    await basedWorkspace(api, dir, config, {
      beforePr: () =>
        writeFile(join(dir, ACTION_CONFIG), JSON.stringify({ ...config, approveLabel: 'wip' })),
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
  fakeGitHubEach((started) => {
    api = started;
  });

  const config = { policies: ['claude'], servers: { notes: SERVED } };

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
});

describe('a config file without servers', () => {
  it('takes the servers from .mcp.json, as the CLI does', async () => {
    const api = await startGitHubApi({ token: TOKEN });
    try {
      const dir = await tempDir();
      await writeFile(join(dir, 'spec.json'), JSON.stringify(await notesSpec()));
      await writeFile(join(dir, '.mcp.json'), JSON.stringify({ mcpServers: { notes: SERVED } }));
      const update = await runCli(['update'], { cwd: dir });
      expect(update.code, update.stderr).toBe(0);
      await mkdir(join(dir, '.github'));
      const waiver = { rule: 'tool-added', tool: 'add_note', reason: 'reviewed' };
      const configText = JSON.stringify({ waivers: [waiver] });
      await writeFile(join(dir, ACTION_CONFIG), configText);
      // The waiver is the base's too: a new one would be config-relaxed.
      api.setFile(DEFAULT_BASE_SHA, ACTION_CONFIG, configText);
      const run = await runIn(api, dir, { comment: 'never' });
      expect(run.code, run.stdout).toBe(0);
      expect(run.stdout).toContain(`Servers from .mcp.json (${ACTION_CONFIG} lists none).`);
      expect(run.outputs['tool-count']).toBe('3');
    } finally {
      await api.close();
    }
  });
});
