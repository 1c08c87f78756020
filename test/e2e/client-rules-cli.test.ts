// The built CLI reads .claude/settings.json in check and writes it with rules --write; what
// rules --write says of the rules it takes out, its refusals and --settings's run in memory
// (test/unit/claude-rules-write.test.ts).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkNotesIn, exampleRepo, json, removeTempDirs, runCli } from '../support/cli.js';

afterAll(removeTempDirs);

describe('check reads .claude/settings.json', () => {
  it('fails on a server-wide allow that lets delete_note run, at the rule line, and says each decision', async () => {
    const dir = await exampleRepo(
      '.claude/settings.json',
      '{\n  "permissions": {\n    "allow": ["mcp__notes"]\n  }\n}\n',
    );
    const run = await checkNotesIn(dir);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as {
      tools: { name: string; claudeCode: unknown }[];
      findings: { rule: string; severity: string; location?: unknown }[];
    };
    expect(report.tools.map((t) => [t.name, t.claudeCode])).toEqual([
      [
        'list_notes',
        { decision: 'allow', rule: 'mcp__notes', file: '.claude/settings.json', line: 3 },
      ],
      [
        'add_note',
        { decision: 'allow', rule: 'mcp__notes', file: '.claude/settings.json', line: 3 },
      ],
      [
        'delete_note',
        { decision: 'allow', rule: 'mcp__notes', file: '.claude/settings.json', line: 3 },
      ],
    ]);
    expect(report.findings.map((f) => [f.rule, f.severity, f.location])).toEqual([
      ['rule-allows-delete', 'error', { file: '.claude/settings.json', line: 3 }],
      ['rule-allows-edit', 'warning', { file: '.claude/settings.json', line: 3 }],
    ]);
  });
  it('passes once rules --write has written the mapping, and the second write changes nothing', async () => {
    const dir = await exampleRepo(
      '.claude/settings.json',
      '{\n  "permissions": {\n    "allow": ["Bash(npm test)", "mcp__notes"]\n  }\n}\n',
    );
    expect((await runCli(['rules', '--write', '.claude/settings.json'], { cwd: dir })).code).toBe(
      0,
    );
    const first = await readFile(join(dir, '.claude/settings.json'), 'utf8');
    expect(JSON.parse(first)).toEqual({
      permissions: {
        allow: ['Bash(npm test)', 'mcp__notes__list_notes'],
        ask: ['mcp__notes__add_note'],
        deny: ['mcp__notes__delete_note'],
      },
    });
    const again = await runCli(['rules', '--write', '.claude/settings.json', '--format', 'text'], {
      cwd: dir,
    });
    expect(again.stdout).toContain('Unchanged: .claude/settings.json (3 rules for server notes');
    expect(await readFile(join(dir, '.claude/settings.json'), 'utf8')).toBe(first);
    const run = await checkNotesIn(dir);
    expect(run.code).toBe(0);
  });
  it('says Claude Code ignores a settings file that does not parse (its deny included), and rules --write leaves it alone', async () => {
    const broken = '{\n  "permissions": {\n    "deny": ["mcp__notes__delete_note",]\n  }\n}\n';
    const dir = await exampleRepo('.claude/settings.json', broken);
    const run = await checkNotesIn(dir, ['--settings', '.claude/settings.json']);
    // Claude Code drops the whole file silently: delete_note is not denied, and that is an error.
    expect(run.code, run.stderr).toBe(1);
    const ignored = json(run).findings.filter((f) => f.rule === 'settings-ignored');
    expect(ignored.map((f) => [f.severity, f.message])).toEqual([
      [
        'error',
        expect.stringMatching(
          /^Claude Code ignores \.claude\/settings\.json entirely: it is not valid JSON at line 3, column \d+: [^,]+, so none of its rules apply, deny and ask rules included; a recorded delete tool is not denied without it\.$/,
        ),
      ],
    ]);
    expect(json(run).tools.find((t) => t.name === 'delete_note')).toMatchObject({
      claudeCode: { decision: 'unset' },
    });
    const write = await runCli(['rules', '--write', '.claude/settings.json'], { cwd: dir });
    expect(write.code).toBe(2);
    expect(await readFile(join(dir, '.claude/settings.json'), 'utf8')).toBe(broken);
  });
});
