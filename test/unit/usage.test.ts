// The CLI's refusals of bad command lines, the CLI in memory: exit 2 and one readable line, no
// stack. test/e2e/cli.test.ts has the real process answer an unknown command and a missing one.
// Then the exit codes --fail-on sets, and each command's --help.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXAMPLE, notesSpec, specServer, tempDir } from '../support/cli.js';
import { runCliInMemory } from '../support/in-memory.js';

describe('usage and exit codes', () => {
  it.each([
    [
      ['check', '--fail-on', 'sometimes', '--', 'node', EXAMPLE],
      /--fail-on must be error, warning, notice or never/,
    ],
    [['check', '--policy', 'anthropic', '--', 'node', EXAMPLE], /Unknown policy "anthropic"/],
    [['check', '--nope'], /Unknown option --nope\./],
    [
      ['check', '--config', 'missing.yml', '--', 'node', EXAMPLE],
      /Could not read the config file missing\.yml/,
    ],
  ])('%j exits 2 with a readable message', async (args, message) => {
    const run = await runCliInMemory(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^mcp-annotation-auditor: /);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stdout).toBe('');
  });
});

describe('exit codes', () => {
  // The built CLI fails on --fail-on warning once (test/e2e/cli.test.ts); the other thresholds
  // here, over a server whose one finding is a warning (a title only in Tool.title).
  it('fail-on warning fails on a warning that fail-on error (the default) and never let pass', async () => {
    const dir = await tempDir();
    const spec = await notesSpec();
    const titled = {
      ...spec,
      tools: spec.tools.map((t) =>
        t.name === 'list_notes'
          ? { ...t, title: 'List notes', annotations: { ...t.annotations, title: undefined } }
          : t,
      ),
    };
    const server = await specServer(dir, 'titled.json', titled);
    const cli = (...args: string[]) => runCliInMemory(args, { cwd: dir });
    expect((await cli('update', '--', ...server)).code).toBe(0);
    const check = (...flags: string[]) =>
      cli('check', '--policy', 'claude', ...flags, '--', ...server);
    const passes = await check();
    expect(passes.stdout).toMatch(/warning\s+title-location\s+list_notes/);
    expect(passes.code, passes.stdout).toBe(0);
    expect((await check('--fail-on', 'warning')).code).toBe(1);
    expect((await check('--fail-on', 'notice')).code).toBe(1);
    expect((await check('--fail-on', 'never')).code).toBe(0);
  });

  it("an error quoting the PR's files shows their control characters escaped, line by line", async () => {
    const dir = await tempDir();
    const ESC = '\u001b';
    const cases: [string, string, string[]][] = [
      [
        '.github/mcp-annotation-auditor.yml',
        'servers:\n  "x\\e]0;PWNED\\a\\e[31mRED":\n    command: node\n    bogus: 1\n',
        [],
      ],
      ['.mcp.json', '{"mcpServers":{"x\\u001b[31mRED":{"command":"node","bogus":1}}}', []],
      [
        'mcp-tool-classes.json',
        '{"version":1,"tools":{},"x\\u001b[31m":1}\n',
        ['--', 'node', EXAMPLE],
      ],
    ];
    for (const [file, text, args] of cases) {
      await mkdir(join(dir, '.github'), { recursive: true });
      await writeFile(join(dir, file), text);
      const run = await runCliInMemory(['check', ...args], { cwd: dir });
      expect(run.code, `${file}: ${run.stderr}`).toBe(2);
      expect(run.stderr, file).not.toContain(ESC);
      expect(run.stderr, file).not.toContain('\u0007');
      expect(run.stderr, file).toContain('\\u001b');
      await rm(join(dir, file));
    }
  });

  it('--help on each command exits 0 (the built CLI answers the bare --help)', async () => {
    for (const command of ['list', 'check', 'update']) {
      const run = await runCliInMemory([command, '--help']);
      expect(run.code, command).toBe(0);
      expect(run.stdout, command).toMatch(/Usage/);
    }
  });
});
