// The action on PRs that relax the check without dropping a hint: client rules changed in the
// PR's config, a delete tool recorded as edit, the audited command changed so the delete tool is
// no longer listed; a PR that renames the server's key as it relaxes the config. The base
// commit's files are served by the fake GitHub API.
// In this process, servers in memory (test/support/action-in-memory.ts); what needs the bundle or
// real processes stays in test/e2e/action-relax.test.ts.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import {
  dropDestructive,
  fakeGitHubEach,
  prWorkspace,
  quote,
  runIn,
} from '../support/action-in-memory.js';
import { notesSpec, SERVERS, tempDir, withAnnotations } from '../support/cli.js';
import { runCliInMemory as runCli } from '../support/in-memory.js';
import { DEFAULT_BASE_SHA, type FakeGitHub } from '../support/github-api.js';

type Spec = Awaited<ReturnType<typeof notesSpec>>;
const CONFIG = '.github/mcp-annotation-auditor.yml';

describe('the action on a PR that relaxes the check in other ways than a dropped hint', () => {
  let api: FakeGitHub;
  let spec: Spec;
  fakeGitHubEach((started, notes) => {
    api = started;
    spec = notes;
  });

  it('22.11: delete to edit recorded with update is a class-relaxed error; the label approves it', async () => {
    const relaxed = withAnnotations(spec, 'delete_note', { destructiveHint: false });
    const { dir, head: server } = await prWorkspace(api, { base: spec, head: relaxed });
    const run = await runIn(api, dir, { command: quote(server), policies: 'claude' });
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.outputs.result).toBe('failed');
    const body = api.commentsOn(1)[0]?.body ?? '';
    expect(body).toContain('`class-relaxed`');
    expect(body).toContain('Class relaxed from delete to edit');
    (api.pulls.get(1) as { labels?: string[] }).labels = ['annotations-approved'];
    const approved = await runIn(api, dir, {
      command: quote(server),
      policies: 'claude',
      'approve-label': 'annotations-approved',
    });
    expect(approved.code, approved.stdout + approved.stderr).toBe(0);
  });

  it('a delete tool moved to a server the PR adds, as edit, is a class-relaxed error; the comment says it moved', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, '.github'), { recursive: true });
    const entry = (file: string) => ({
      command: 'node',
      args: [join(SERVERS, 'configurable.mjs'), join(dir, file)],
    });
    await writeFile(join(dir, 'spec.json'), JSON.stringify(spec));
    const baseConfig = JSON.stringify({ servers: { notes: entry('spec.json') } });
    await writeFile(join(dir, CONFIG), baseConfig);
    expect((await runCli(['update', '--config', CONFIG], { cwd: dir })).code).toBe(0);
    api.setFile(
      DEFAULT_BASE_SHA,
      'mcp-tool-classes.json',
      await readFile(join(dir, 'mcp-tool-classes.json'), 'utf8'),
    );
    api.setFile(DEFAULT_BASE_SHA, CONFIG, baseConfig);
    // The PR: delete_note leaves notes for a new server notes2, declared not destructive.
    const relaxed = withAnnotations(spec, 'delete_note', { destructiveHint: false });
    const kept = { ...spec, tools: spec.tools.filter((t) => t.name !== 'delete_note') };
    const moved = relaxed.tools.filter((t) => t.name === 'delete_note');
    await writeFile(join(dir, 'spec.json'), JSON.stringify(kept));
    await writeFile(join(dir, 'spec2.json'), JSON.stringify({ name: 'notes2', tools: moved }));
    await writeFile(
      join(dir, CONFIG),
      JSON.stringify({ servers: { notes: entry('spec.json'), notes2: entry('spec2.json') } }),
    );
    expect((await runCli(['update', '--config', CONFIG], { cwd: dir })).code).toBe(0);

    const run = await runIn(api, dir, {});
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.outputs.result).toBe('failed');
    const body = api.commentsOn(1)[0]?.body ?? '';
    expect(body).toContain('`class-relaxed`');
    expect(body).toContain('Class relaxed from delete to edit');
    expect(body).toContain('moved from server notes');
    expect(body).toContain('Moved from server &quot;notes&quot; to server &quot;notes2&quot;');
    expect(body).not.toContain('`tool-added`');
    (api.pulls.get(1) as { labels?: string[] }).labels = ['annotations-approved'];
    const approved = await runIn(api, dir, { 'approve-label': 'annotations-approved' });
    expect(approved.code, approved.stdout + approved.stderr).toBe(0);
  });

  it('22.12: a tool gone after the PR changed the server command is start-removed, and the comment says why', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, '.github'), { recursive: true });
    const fewer = { ...spec, tools: spec.tools.filter((t) => t.name !== 'delete_note') };
    await writeFile(join(dir, 'base.json'), JSON.stringify(spec));
    await writeFile(join(dir, 'read-only.json'), JSON.stringify(fewer));
    const configOf = (file: string, token: string) =>
      JSON.stringify({
        policies: ['claude'],
        servers: {
          notes: {
            command: 'node',
            args: [join(SERVERS, 'configurable.mjs'), join(dir, file)],
            env: { NOTES_TOKEN: token },
          },
        },
      });
    const baseConfig = configOf('base.json', 'tok-base-0001');
    await writeFile(join(dir, CONFIG), baseConfig);
    expect((await runCli(['update', '--config', CONFIG], { cwd: dir })).code).toBe(0);
    api.setFile(
      DEFAULT_BASE_SHA,
      'mcp-tool-classes.json',
      await readFile(join(dir, 'mcp-tool-classes.json'), 'utf8'),
    );
    api.setFile(DEFAULT_BASE_SHA, CONFIG, baseConfig);
    // The PR: a mode of the server that no longer lists delete_note, recorded.
    await writeFile(join(dir, CONFIG), configOf('read-only.json', 'tok-head-0002'));
    expect((await runCli(['update', '--config', CONFIG], { cwd: dir })).code).toBe(0);

    const run = await runIn(api, dir, {});
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.outputs.result).toBe('failed');
    const body = api.commentsOn(1)[0]?.body ?? '';
    expect(body).toContain('`start-removed`');
    expect(body).toContain('changes how this server is started');
    expect(body).toContain('(args, env NOTES\\_TOKEN)');
    // The log holds it only in the ::add-mask:: line that masks it.
    const log = run.stdout.replace(/^::add-mask::.*$/gm, '');
    expect(body + run.summary + log).not.toContain('tok-head-0002');
    (api.pulls.get(1) as { labels?: string[] }).labels = ['annotations-approved'];
    const approved = await runIn(api, dir, { 'approve-label': 'annotations-approved' });
    expect(approved.code, approved.stdout + approved.stderr).toBe(0);
  });
});

describe("a PR that renames the server's key and relaxes the config", () => {
  let api: FakeGitHub;
  let spec: Spec;
  fakeGitHubEach((started, notes) => {
    api = started;
    spec = notes;
  });
  /** The marker of a run with policies: claude. */
  const CLAUDE_MARKER = '<!-- mcp-annotation-auditor:notes policies=claude -->';

  it('still fails on the dropped hint, marks the old comment, and shows config-relaxed', async () => {
    const dir = await tempDir();
    const configPath = '.github/mcp-annotation-auditor.yml';
    await mkdir(join(dir, '.github'), { recursive: true });
    const entry = (file: string) => ({
      command: 'node',
      args: [join(SERVERS, 'configurable.mjs'), join(dir, file)],
    });
    await writeFile(join(dir, 'base.json'), JSON.stringify(spec));
    await writeFile(join(dir, 'head.json'), JSON.stringify(dropDestructive(spec)));
    const baseConfig = JSON.stringify({
      policies: ['claude'],
      servers: { notes: entry('base.json') },
    });
    // The class list at the base, recorded from the base's config.
    await writeFile(join(dir, configPath), baseConfig);
    const record = await runCli(['update', '--config', configPath], { cwd: dir });
    expect(record.code, record.stderr).toBe(0);
    api.setFile(
      DEFAULT_BASE_SHA,
      'mcp-tool-classes.json',
      await readFile(join(dir, 'mcp-tool-classes.json'), 'utf8'),
    );
    api.setFile(DEFAULT_BASE_SHA, configPath, baseConfig);
    const old = api.seedComment({
      body: `${CLAUDE_MARKER}\n### ❌ MCP tool annotations for \`notes\`: failed`,
    });
    // The PR: key notes2, the hint dropped and recorded, and hint-dropped turned to a warning.
    await writeFile(
      join(dir, configPath),
      JSON.stringify({
        policies: ['claude'],
        rules: { 'hint-dropped': 'warning' },
        servers: { notes2: entry('head.json') },
      }),
    );
    expect((await runCli(['update', '--prune', '--config', configPath], { cwd: dir })).code).toBe(
      0,
    );

    const run = await runIn(api, dir, {});
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.outputs.result).toBe('failed');
    const comments = api.commentsOn(1);
    const oldNow = comments.find((c) => c.id === old.id);
    expect(oldNow?.body).toContain(
      '### ❌ MCP tool annotations for `notes`: now audited as `notes2`',
    );
    const current = comments.find((c) =>
      c.body.startsWith('<!-- mcp-annotation-auditor:notes2 policies=claude -->'),
    );
    expect(current?.body).toContain('`hint-dropped`');
    expect(current?.body).toContain('`config-relaxed`');
    expect(current?.body).toContain(`rule hint-dropped is turned down to warning (was error)`);
  });
});
