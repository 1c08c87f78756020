// The action with Claude Code settings: the check of the committed settings (claude-settings, or
// .claude/settings.json by default), what the PR comment says a class change does to them, and
// the `rules` output.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import { fakeGitHubEach, prWorkspace, quote, runIn } from '../support/action-workspace.js';
import { notesSpec, SERVERS } from '../support/cli.js';
import { type FakeGitHub } from '../support/github-api.js';

type Spec = Awaited<ReturnType<typeof notesSpec>>;

/** `{"permissions": ...}` as a person writes it, one rule a line. */
function settingsText(permissions: Record<string, string[]>): string {
  return `${JSON.stringify({ permissions }, null, 2)}\n`;
}

/** The rules `rules` writes for the example server with the default mapping. */
const MAPPED = {
  allow: ['mcp__notes__list_notes'],
  ask: ['mcp__notes__add_note'],
  deny: ['mcp__notes__delete_note'],
};

describe('the action with Claude Code settings', () => {
  let api: FakeGitHub;
  let spec: Spec;
  fakeGitHubEach((started, notes) => {
    api = started;
    spec = notes;
  });

  it('a PR that changes only the settings (an allow rule for a delete tool) fails, comments, and annotates the rule', async () => {
    const { dir, head: server } = await prWorkspace(api, {
      base: spec,
      files: {
        '.claude/settings.json': settingsText({
          allow: ['mcp__notes__list_notes', 'mcp__notes__delete_note'],
          ask: ['mcp__notes__add_note'],
        }),
      },
    });
    const run = await runIn(api, dir, { command: quote(server), policies: 'claude' });
    expect(run.code, run.stdout).toBe(1);
    expect(run.outputs.result).toBe('failed');
    expect(run.stdout).toContain(
      '::error title=mcp-annotation-auditor%3A rule-allows-delete,file=.claude/settings.json,line=5::',
    );
    const comments = api.commentsOn(1);
    expect(comments).toHaveLength(1);
    expect(comments[0]?.body).toContain('❌ MCP tool annotations for `notes`: failed');
    expect(comments[0]?.body).toContain('`rule-allows-delete`');
    // No class changed: nothing to say about class changes.
    expect(comments[0]?.body).not.toContain('#### Client rules');
  });

  /**
   * The action on a workflow_run for PR #1, its server run by tamper.mjs, which rewrites `path`
   * as it starts. The PR is read through the API, slowly: the server has long started by the
   * time a file would be read after it.
   */
  function tampered(dir: string, path: string, server: string[]) {
    api.latency = { path: /\/pulls\/1$/, ms: 1_500 };
    return runIn(
      api,
      dir,
      {
        command: quote(['node', join(SERVERS, 'tamper.mjs'), path, ...server.slice(1)]),
        policies: 'claude',
        'pr-number': '1',
      },
      { eventName: 'workflow_run', event: { action: 'completed', workflow_run: { id: 1 } } },
    );
  }

  it('reads the settings before the server starts: a server that rewrites them changes nothing', async () => {
    const settings = settingsText({ ...MAPPED, allow: ['mcp__notes'], deny: [] });
    const { dir, head: server } = await prWorkspace(api, {
      base: spec,
      files: { '.claude/settings.json': settings },
    });
    const path = join(dir, '.claude', 'settings.json');
    const run = await tampered(dir, path, server);
    // The server did rewrite the file (into something that is not even JSON)...
    expect(await readFile(path, 'utf8')).toBe('failOn: never\n');
    // ...but the check judged the committed rules: delete_note is allowed server-wide.
    expect(run.code, run.stdout).toBe(1);
    expect(run.outputs.result).toBe('failed');
    expect(run.stdout).toContain('rule-allows-delete');
  });

  it("lists and reads Claude Code's commands before the server starts: one the server empties still counts", async () => {
    const { dir, head: server } = await prWorkspace(api, {
      base: spec,
      files: {
        '.claude/commands/ops/cleanup.md':
          '---\nallowed-tools: mcp__notes__add_note, mcp__notes__delete_note\n---\nClean up.\n',
      },
    });
    const path = join(dir, '.claude', 'commands', 'ops', 'cleanup.md');
    const run = await tampered(dir, path, server);
    expect(await readFile(path, 'utf8')).toBe('failOn: never\n');
    // The server emptied the command: read after it started, nothing would grant delete_note.
    expect(run.code, run.stdout).toBe(1);
    expect(run.stdout).toContain(
      '"mcp__notes__delete_note" in .claude/commands/ops/cleanup.md line 2 lets it run without asking (while the command /ops:cleanup runs)',
    );
  });

  it('lists and reads the clients’ folders before the server starts: an opencode agent the server empties still counts', async () => {
    const { dir, head: server } = await prWorkspace(api, {
      base: spec,
      files: {
        '.opencode/agent/janitor.md':
          '---\ndescription: janitor\npermission:\n  notes_delete_note: allow\n---\nClean up.\n',
      },
    });
    const path = join(dir, '.opencode', 'agent', 'janitor.md');
    const run = await tampered(dir, path, server);
    expect(await readFile(path, 'utf8')).toBe('failOn: never\n');
    expect(run.code, run.stdout).toBe(1);
    expect(run.stdout).toContain('rule-unjudged');
  });
});
