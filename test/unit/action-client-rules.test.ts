// The action with Claude Code settings: the check of the committed settings (claude-settings, or
// .claude/settings.json by default), what the PR comment says a class change does to them, and
// the `rules` output.
// In this process, servers in memory (test/support/action-in-memory.ts); what needs the bundle or
// real processes stays in test/e2e/action-client-rules.test.ts.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import { fakeGitHubEach, prWorkspace, quote, runIn } from '../support/action-in-memory.js';
import { notesSpec, withAnnotations } from '../support/cli.js';
import { runCliInMemory as runCli } from '../support/in-memory.js';
import { DEFAULT_BASE_SHA, type FakeGitHub } from '../support/github-api.js';

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

  it('the comment for a class change says what the committed settings now decide, and how to bring them in line', async () => {
    const relaxed = withAnnotations(spec, 'add_note', { readOnlyHint: true });
    const { dir, head: server } = await prWorkspace(api, {
      base: spec,
      head: relaxed,
      files: { '.claude/settings.json': settingsText(MAPPED) },
    });
    const run = await runIn(api, dir, { command: quote(server), policies: 'claude' });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const body = api.commentsOn(1)[0]?.body ?? '';
    expect(body).toContain(
      [
        '#### Client rules (Claude Code)',
        '',
        '- `add_note` moved edit -> read (rule ask -> **allow**): `.claude/settings.json` asks for it (`mcp__notes__add_note`, line 7); the class list now maps it to **allow**. Run `npx mcp-annotation-auditor@0.1.0 rules --write .claude/settings.json`.',
        '',
      ].join('\n'),
    );

    // Once the settings follow the class list, the comment says they agree.
    const fixed = await runCli(['rules', '--write', '.claude/settings.json'], { cwd: dir });
    expect(fixed.code, fixed.stderr).toBe(0);
    const again = await runIn(api, dir, { command: quote(server), policies: 'claude' });
    expect(again.code).toBe(0);
    expect(api.commentsOn(1)).toHaveLength(1);
    expect(api.commentsOn(1)[0]?.body).toContain(
      '- `add_note` moved edit -> read (rule ask -> **allow**): `.claude/settings.json` allows it (`mcp__notes__add_note`, line 4), as the mapping says.',
    );
  });

  it('fails a PR that only adds a command letting the delete tool run, with no settings file at all', async () => {
    const { dir, head: server } = await prWorkspace(api, {
      base: spec,
      head: spec,
      files: {
        '.claude/commands/cleanup.md':
          '---\ndescription: clean up\nallowed-tools: mcp__notes__delete_note\n---\nClean up.\n',
      },
    });
    const run = await runIn(api, dir, { command: quote(server), policies: 'claude' });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      '"mcp__notes__delete_note" in .claude/commands/cleanup.md line 3 lets it run without asking (while the command /cleanup runs)',
    );
  });

  it('the comment says what a class change does in each committed client: Codex now runs it unasked, Claude Code still denies it', async () => {
    const relaxed = withAnnotations(spec, 'delete_note', { destructiveHint: false });
    const { dir, head: server } = await prWorkspace(api, {
      base: spec,
      head: relaxed,
      files: {
        '.claude/settings.json': settingsText(MAPPED),
        '.codex/config.toml': '[mcp_servers.notes]\ncommand = "node"\n',
      },
    });
    await runIn(api, dir, { command: quote(server), policies: 'claude' });
    const body = api.commentsOn(1)[0]?.body ?? '';
    expect(body).toContain(
      [
        '#### What the change does in each client',
        '',
        '- `delete_note`: class delete -> edit, destructiveHint true -> false',
        '  - Claude Code: it is still refused: `mcp__notes__delete_note` in `.claude/settings.json` line 10.',
        '  - Codex CLI: it now runs without asking (before, it asked): auto (Codex’s default: no approval\\_mode set): destructiveHint and openWorldHint declared false.',
        '',
      ].join('\n'),
    );
  });

  it('the rules output is a settings file with the permissions the class list maps to', async () => {
    const { dir, head: server } = await prWorkspace(api, { base: spec });
    await mkdir(join(dir, '.github'));
    await writeFile(
      join(dir, '.github', 'mcp-annotation-auditor.yml'),
      'clientRules:\n  delete: ask\n',
    );
    // The same at the base: a laxer mapping added by the PR itself would be config-relaxed.
    api.setFile(
      DEFAULT_BASE_SHA,
      '.github/mcp-annotation-auditor.yml',
      'clientRules:\n  delete: ask\n',
    );
    const run = await runIn(api, dir, { command: quote(server), policies: 'claude' });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const path = run.outputs.rules ?? '';
    // In the step's own folder: a second step of the job cannot replace it.
    expect(path).toMatch(/mcp-annotation-auditor[\\/]step-[^\\/]+[\\/]claude-settings\.json$/);
    expect(await readFile(path, 'utf8')).toBe(
      settingsText({
        allow: ['mcp__notes__list_notes'],
        ask: ['mcp__notes__add_note', 'mcp__notes__delete_note'],
        deny: [],
      }),
    );
    // No settings file in the repository: nothing was checked.
    const report = JSON.parse(await readFile(run.outputs.report ?? '', 'utf8')) as {
      tools: { claudeCode?: unknown }[];
    };
    expect(report.tools).toHaveLength(3);
    expect(report.tools.every((t) => t.claudeCode === undefined)).toBe(true);
  });

  it('claude-settings with two files merges them as Claude Code does: a local deny beats a project-wide allow', async () => {
    const { dir, head: server } = await prWorkspace(api, {
      base: spec,
      files: {
        '.claude/settings.json': settingsText({ allow: ['mcp__notes'] }),
        '.claude/settings.local.json': settingsText({ deny: ['mcp__notes__delete_note'] }),
      },
    });
    const run = await runIn(api, dir, {
      command: quote(server),
      policies: 'claude',
      'claude-settings': '.claude/settings.json, .claude/settings.local.json',
    });
    // add_note (edit) is allowed server-wide: a warning; delete_note is denied, so no error.
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.outputs['warning-count']).toBe('1');
    expect(run.stdout).toContain(
      '::warning title=mcp-annotation-auditor%3A rule-allows-edit,file=.claude/settings.json,line=4::',
    );
    const report = JSON.parse(await readFile(run.outputs.report ?? '', 'utf8')) as {
      tools: { name: string; claudeCode?: unknown }[];
    };
    const decisions = Object.fromEntries(report.tools.map((t) => [t.name, t.claudeCode]));
    expect(decisions).toEqual({
      list_notes: {
        decision: 'allow',
        rule: 'mcp__notes',
        file: '.claude/settings.json',
        line: 4,
      },
      add_note: { decision: 'allow', rule: 'mcp__notes', file: '.claude/settings.json', line: 4 },
      delete_note: {
        decision: 'deny',
        rule: 'mcp__notes__delete_note',
        file: '.claude/settings.local.json',
        line: 4,
      },
    });

    // With no input the action reads both files too, as Claude Code does.
    const both = await runIn(api, dir, { command: quote(server), policies: 'claude' });
    expect(both.code, both.stdout + both.stderr).toBe(0);
    // The project file alone lets delete_note run: the step fails.
    const alone = await runIn(api, dir, {
      command: quote(server),
      policies: 'claude',
      'claude-settings': '.claude/settings.json',
    });
    expect(alone.code).toBe(1);
    expect(alone.stdout).toContain('rule-allows-delete');
  });
});
