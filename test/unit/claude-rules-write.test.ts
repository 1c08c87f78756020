// What `rules --write` says of the rules it takes out of .claude/settings.json, its refusals of a
// file with a key twice, and --settings where it has no use or names no file: the CLI in memory.
// test/e2e/client-rules-cli.test.ts has the built CLI read the settings file and write it.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXAMPLE, exampleRepo } from '../support/cli.js';
import { runCliInMemory as runCli } from '../support/in-memory.js';

/** `check --format json` of the example server as "notes", run in `dir`; `flags` go before `--`. */
function checkNotesIn(dir: string, flags: string[]) {
  const server = ['--server-name', 'notes', '--', process.execPath, EXAMPLE];
  return runCli(['check', '--format', 'json', ...flags, ...server], { cwd: dir });
}

describe('--settings', () => {
  it('refuses --settings on list, and a named settings file that is not there', async () => {
    const dir = await exampleRepo();
    const list = await runCli(['list', '--settings', 'x.json', '--', process.execPath, EXAMPLE], {
      cwd: dir,
    });
    expect(list.code).toBe(2);
    expect(list.stderr).toContain('--settings would be ignored');
    const missing = await checkNotesIn(dir, ['--settings', 'nope.json']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('The settings file nope.json does not exist.');
  });
});

describe('rules --write says what it takes out', () => {
  it('lists every rule it removes or moves, with why, before the Wrote line; the JSON holds them too', async () => {
    const settings = [
      '{',
      '  "permissions": {',
      '    "allow": ["Bash(npm test)", "mcp__notes", "mcp__notes__delete_note"],',
      '    "deny": ["mcp__notes__old_tool", "mcp__other__x"]',
      '  }',
      '}',
      '',
    ].join('\n');
    const dir = await exampleRepo('.claude/settings.json', settings);
    const text = await runCli(['rules', '--write', '.claude/settings.json', '--format', 'text'], {
      cwd: dir,
    });
    expect(text.code, text.stderr).toBe(0);
    const told = [
      "These 3 rules of .claude/settings.json are removed or replaced (the class list's rules replace every rule of its servers):",
      '  permissions.allow line 3: mcp__notes (a rule for every tool of server notes (or a pattern of them): replaced by one rule per tool the class list records for notes)',
      '  permissions.allow line 3: mcp__notes__delete_note (the class list maps this tool to deny: moved to permissions.deny)',
      '  permissions.deny line 4: mcp__notes__old_tool (old_tool is not a tool the class list records for server notes)',
      'Wrote .claude/settings.json (3 rules for server notes; every other key and rule kept).',
    ].join('\n');
    expect(text.stdout).toContain(told);
    expect(JSON.parse(await readFile(join(dir, '.claude/settings.json'), 'utf8'))).toEqual({
      permissions: {
        allow: ['Bash(npm test)', 'mcp__notes__list_notes'],
        ask: ['mcp__notes__add_note'],
        deny: ['mcp__notes__delete_note', 'mcp__other__x'],
      },
    });

    const again = await exampleRepo('.claude/settings.json', settings);
    const json = await runCli(['rules', '--write', '.claude/settings.json'], { cwd: again });
    expect(json.code, json.stderr).toBe(0);
    expect((JSON.parse(json.stdout) as { removed: unknown }).removed).toEqual([
      {
        list: 'allow',
        rule: 'mcp__notes',
        line: 3,
        why: 'a rule for every tool of server notes (or a pattern of them): replaced by one rule per tool the class list records for notes',
      },
      {
        list: 'allow',
        rule: 'mcp__notes__delete_note',
        line: 3,
        movedTo: 'deny',
        why: 'the class list maps this tool to deny: moved to permissions.deny',
      },
      {
        list: 'deny',
        rule: 'mcp__notes__old_tool',
        line: 4,
        why: 'old_tool is not a tool the class list records for server notes',
      },
    ]);
    expect(json.stderr).toContain('  permissions.deny line 4: mcp__notes__old_tool (');
  });

  it('says nothing of removals when it only adds rules', async () => {
    const dir = await exampleRepo(
      '.claude/settings.json',
      '{\n  "permissions": {\n    "allow": ["Bash(npm test)"]\n  }\n}\n',
    );
    const run = await runCli(['rules', '--write', '.claude/settings.json', '--format', 'text'], {
      cwd: dir,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toContain('removed or replaced');
    expect(run.stdout).toContain('Wrote .claude/settings.json (3 rules');
  });
});

describe('rules --write and a settings file with a key twice', () => {
  it('refuses "permissions" twice (JSON keeps the last), naming the lines, and leaves the file alone', async () => {
    const settings =
      '{\n  "permissions": {\n    "deny": ["mcp__notes__delete_note"]\n  },\n  "permissions": {\n    "allow": ["mcp__notes"]\n  }\n}\n';
    const dir = await exampleRepo('.claude/settings.json', settings);
    const run = await runCli(['rules', '--write', '.claude/settings.json', '--format', 'text'], {
      cwd: dir,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'The settings file .claude/settings.json has "permissions" 2 times (lines 2, 5): JSON keeps only the last, so the rules of the others count for nothing. Merge them into one "permissions" by hand',
    );
    expect(run.stdout).not.toContain('Wrote');
    expect(await readFile(join(dir, '.claude/settings.json'), 'utf8')).toBe(settings);
  });

  it('refuses a permissions list twice, naming the lines', async () => {
    const settings =
      '{\n  "permissions": {\n    "allow": ["mcp__notes__list_notes"],\n    "allow": ["mcp__notes"]\n  }\n}\n';
    const dir = await exampleRepo('.claude/settings.json', settings);
    const run = await runCli(['rules', '--write', '.claude/settings.json'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'The settings file .claude/settings.json has "permissions.allow" 2 times (lines 3, 4)',
    );
    expect(await readFile(join(dir, '.claude/settings.json'), 'utf8')).toBe(settings);
  });
});
