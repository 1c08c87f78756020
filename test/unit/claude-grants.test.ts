// Claude Code's commands and skills: their allowed-tools are allow rules while they run, read
// from the front matter (config/claude-grants.ts) and judged as settings rules are. The binary's
// side is test/oracle/claude-code.test.ts.
import { copyFile, mkdir, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { grantsOf } from '../../src/config/claude-grants.js';
import { EXAMPLE, ROOT, tempDir } from '../support/cli.js';
import { runCliInMemory } from '../support/in-memory.js';

const front = (lines: string) => `---\ndescription: clean up\n${lines}\n---\nClean up.\n`;

describe('grantsOf', () => {
  it('reads a text of names at commas and spaces, parentheses kept whole', async () => {
    const file = await grantsOf(
      front('allowed-tools: mcp__notes__delete_note, Bash(git add:*) Read'),
      'c.md',
    );
    expect(file?.rules).toEqual([
      { list: 'allow', rule: 'mcp__notes__delete_note', file: 'c.md', line: 3 },
      { list: 'allow', rule: 'Bash(git add:*)', file: 'c.md', line: 3 },
      { list: 'allow', rule: 'Read', file: 'c.md', line: 3 },
    ]);
    expect(file?.source).toBe('project');
  });

  it('reads a list, each entry on its own line, and a flow list', async () => {
    const listed = await grantsOf(front('allowed-tools:\n  - mcp__notes\n  - Read'), 'c.md');
    expect(listed?.rules.map((r) => [r.rule, r.line])).toEqual([
      ['mcp__notes', 4],
      ['Read', 5],
    ]);
    const flow = await grantsOf(front('allowed-tools: [mcp__a__b, mcp__c]'), 'c.md');
    expect(flow?.rules.map((r) => r.rule)).toEqual(['mcp__a__b', 'mcp__c']);
  });

  it('reads the front matter as Claude Code cuts it, keys escaped or merged included', async () => {
    // Claude Code ends the front matter at the first ---, even inside a line.
    const cut = await grantsOf('---\nallowed-tools: mcp__a__b\n----\nbody\n', 'c.md');
    expect(cut?.rules.map((r) => r.rule)).toEqual(['mcp__a__b']);
    const escaped = await grantsOf(front('"allowed\\x2dtools": mcp__a__b'), 'c.md');
    expect(escaped?.rules.map((r) => r.rule)).toEqual(['mcp__a__b']);
    const merged = await grantsOf(front('base: &b\n  allowed-tools: mcp__a__b\n<<: *b'), 'c.md');
    expect(merged?.rules.map((r) => r.rule)).toEqual(['mcp__a__b']);
  });

  it('takes hooks in the front matter as a PermissionRequest hook over every tool', async () => {
    const file = await grantsOf(front('hooks:\n  PreToolUse: []'), 'c.md');
    expect(file?.rules).toEqual([]);
    expect(file?.hooks).toEqual([{ value: '', event: 'PermissionRequest', file: 'c.md', line: 3 }]);
  });

  it('grants nothing without front matter, without allowed-tools, or with an empty one', async () => {
    expect(await grantsOf('allowed-tools: mcp__notes\n', 'c.md')).toBeUndefined();
    expect(await grantsOf(front('model: x'), 'c.md')).toBeUndefined();
    expect(await grantsOf(front('allowed-tools:'), 'c.md')).toBeUndefined();
  });

  it('refuses front matter it cannot read, naming the file: never judged as no grant', async () => {
    await expect(grantsOf(front('allowed-tools: [a, b'), 'c.md')).rejects.toThrow(
      /c\.md: its front matter is not YAML/,
    );
    await expect(grantsOf(front('allowed-tools:\n  - {a: 1}'), 'c.md')).rejects.toThrow(
      /c\.md: an allowed-tools entry is not a text/,
    );
    await expect(grantsOf(front('allowed-tools: 3'), 'c.md')).rejects.toThrow(
      /neither a text nor a list of texts/,
    );
  });
});

/** A repository with the class list and these files; check of the example there. */
async function checkWith(files: Record<string, string>) {
  const dir = await tempDir();
  await copyFile(join(ROOT, 'mcp-tool-classes.json'), join(dir, 'mcp-tool-classes.json'));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return runCliInMemory(['check', '--server-name', 'notes', '--', 'node', EXAMPLE], { cwd: dir });
}

describe('check with commands and skills', () => {
  it('fails a command that lets the delete tool run, saying while what it holds', async () => {
    const run = await checkWith({
      '.claude/commands/ops/cleanup.md': front('allowed-tools: mcp__notes__delete_note'),
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      'rule-allows-delete  delete_note  delete tool mcp__notes__delete_note: in Claude Code, "mcp__notes__delete_note" in .claude/commands/ops/cleanup.md line 3 lets it run without asking (while the command /ops:cleanup runs); the class list maps it to deny.',
    );
  });

  it('warns of a skill that lets the edit tool run, and a deny rule still holds', async () => {
    const run = await checkWith({
      '.claude/skills/janitor/SKILL.md': front(
        'allowed-tools: mcp__notes__add_note mcp__notes__delete_note',
      ),
      '.claude/settings.json': JSON.stringify({
        permissions: { deny: ['mcp__notes__delete_note'] },
      }),
    });
    expect(run.stdout).toContain(
      '"mcp__notes__add_note" in .claude/skills/janitor/SKILL.md line 3 lets it run without asking (while the skill janitor is active, which the model may start on its own)',
    );
    expect(run.stdout).not.toContain('rule-allows-delete');
  });

  it('finds skills nested and behind links, and commands of the folders above, up to the repository', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, '.git'));
    await copyFile(join(ROOT, 'mcp-tool-classes.json'), join(dir, 'mcp-tool-classes.json'));
    const put = async (path: string, text: string) => {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), text);
    };
    await put('.claude/commands/top.md', front('allowed-tools: mcp__notes__delete_note'));
    await put('docs/janitor/SKILL.md', front('allowed-tools: mcp__notes__add_note'));
    await mkdir(join(dir, '.claude/skills/team'), { recursive: true });
    await symlink(join(dir, 'docs/janitor'), join(dir, '.claude/skills/team/janitor'));
    await mkdir(join(dir, 'pkg'));
    await copyFile(join(ROOT, 'mcp-tool-classes.json'), join(dir, 'pkg/mcp-tool-classes.json'));
    const run = await runCliInMemory(['check', '--server-name', 'notes', '--', 'node', EXAMPLE], {
      cwd: join(dir, 'pkg'),
    });
    expect(run.stdout).toContain('"mcp__notes__delete_note" in ../.claude/commands/top.md line 3');
    expect(run.stdout).toContain(
      '"mcp__notes__add_note" in ../.claude/skills/team/janitor/SKILL.md line 3 lets it run without asking (while the skill janitor is active',
    );
  });

  it('stops at a command it cannot read', async () => {
    const run = await checkWith({ '.claude/commands/x.md': front('allowed-tools: [') });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      "Claude Code's .claude/commands/x.md: its front matter is not YAML",
    );
  });
});
