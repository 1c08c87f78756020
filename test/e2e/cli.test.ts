import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  checkWithoutClassList,
  counted,
  EXAMPLE,
  json,
  ROOT,
  runCli,
  SERVERS,
  startsIn,
  tempDir,
  withStarts,
} from '../support/cli.js';

const FILESYSTEM = join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

describe('the example server over stdio', () => {
  it('list prints a table with each tool, its class, reach, hints and title, and a verdict', async () => {
    const run = await runCli(['list', '--', 'node', EXAMPLE]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /list_notes\s+read\s+closed\s+true\s+false\s+true\s+false\s+List notes/,
    );
    expect(run.stdout).toMatch(
      /add_note\s+edit\s+closed\s+false\s+false\s+false\s+false\s+Add note/,
    );
    expect(run.stdout).toMatch(
      /delete_note\s+delete\s+closed\s+false\s+true\s+true\s+false\s+Delete note/,
    );
    expect(run.stdout.trim().split('\n').at(-1)).toBe(
      'LISTED: 3 tools (1 read, 1 edit, 1 delete); 0 errors, 0 warnings, 0 notices.',
    );
  });

  it('--format json gives tools with declared hints and findings', async () => {
    const run = await runCli(['list', '--format', 'json', '--', 'node', EXAMPLE]);
    const report = json(run);
    expect(report.tools.map((t) => [t.name, t.class, t.openWorld, t.titleSource])).toEqual([
      ['list_notes', 'read', false, 'annotations'],
      ['add_note', 'edit', false, 'annotations'],
      ['delete_note', 'delete', false, 'annotations'],
    ]);
    expect(report.tools[2]?.hints.destructiveHint).toEqual({
      declared: true,
      value: true,
      effective: true,
    });
    expect(report.findings).toEqual([]);
  });

  it('--format markdown renders a table', async () => {
    const run = await runCli(['list', '--format', 'markdown', '--', 'node', EXAMPLE]);
    expect(run.stdout).toContain(
      '| list\\_notes | List notes | read | closed | `true` | `false` | `true` | `false` |',
    );
  });

  it('check passes the example server under every profile once its class list exists', async () => {
    const dir = await tempDir();
    const list = join(dir, 'classes.json');
    expect(
      (
        await runCli(['update', '--class-list', list, '--', 'node', EXAMPLE], {
          cwd: dirname(list),
        })
      ).code,
    ).toBe(0);
    const run = await runCli([
      'check',
      '--policy',
      'claude,openai,explicit',
      '--class-list',
      list,
      '--',
      'node',
      EXAMPLE,
    ]);
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toContain('PASSED: 0 errors, 0 warnings, 0 notices (fail-on: error).');
  });

  it('check without a class list fails with the update command to run', async () => {
    const run = await checkWithoutClassList();
    expect(run.code).toBe(1);
    expect(json(run).findings).toMatchObject([{ rule: 'unrecorded-change', severity: 'error' }]);
  });
});

describe('@modelcontextprotocol/server-filesystem, a published server', () => {
  it('classes write_file, edit_file and move_file delete, create_directory edit, ten tools read, all closed', async () => {
    const dir = await tempDir();
    const run = await runCli([
      'check',
      '--format',
      'json',
      '--policy',
      'openai',
      '--class-list',
      join(dir, 'x.json'),
      '--',
      'node',
      FILESYSTEM,
      dir,
    ]);
    const report = json(run);
    const byClass = (c: string) =>
      report.tools
        .filter((t) => t.class === c)
        .map((t) => t.name)
        .sort();
    expect(byClass('delete')).toEqual(['edit_file', 'move_file', 'write_file']);
    expect(byClass('edit')).toEqual(['create_directory']);
    expect(byClass('read')).toHaveLength(10);
    expect(report.tools.every((t) => t.reach === 'closed')).toBe(true);
    const openai = report.findings.filter((f) => f.rule === 'policy-openai');
    expect(openai.map((f) => f.tool).sort()).toEqual(byClass('read'));
    expect(openai.every((f) => f.message.includes('destructiveHint is not declared'))).toBe(true);
  });
});

describe('a malformed tool among good ones', () => {
  it('lists and classes the good ones and reports each bad one as malformed-tool', async () => {
    const run = await runCli([
      'check',
      '--format',
      'json',
      '--policy',
      'claude',
      '--',
      'node',
      join(SERVERS, 'malformed-tool.mjs'),
    ]);
    const report = json(run);
    expect(run.code).toBe(1);
    expect(report.tools.map((t) => `${t.name}:${t.class}`)).toEqual([
      'list_notes:read',
      'add_note:edit',
      'delete_note:delete',
    ]);
    expect(report.findings.filter((f) => f.rule === 'malformed-tool').map((f) => f.tool)).toEqual([
      'string_hint',
      '#3',
      'array_annotations',
    ]);
  });
});

describe('zod runs jitless', () => {
  it("no run compiles code from strings: every schema, the SDK's included, is built after the setting", async () => {
    const dir = await tempDir();
    const list = join(dir, 'classes.json');
    const compiles = async (args: string[]): Promise<number> => {
      const file = join(dir, 'compiles.txt');
      const run = await runCli(args, {
        cwd: dir,
        env: {
          ...process.env,
          NODE_OPTIONS: `--import=${pathToFileURL(join(ROOT, 'test/fixtures/count-compiles.mjs')).href}`,
          COUNT_COMPILES_FILE: file,
        },
      });
      expect(run.code, run.stderr).toBeLessThan(2);
      return Number(await readFile(file, 'utf8'));
    };
    expect(await compiles(['update', '--class-list', list, '--', 'node', EXAMPLE])).toBe(0);
    expect(await compiles(['check', '--class-list', list, '--', 'node', EXAMPLE])).toBe(0);
  });
});

describe('usage and exit codes', () => {
  it('a report far larger than a pipe holds reaches stdout whole before the process ends', async () => {
    const run = await runCli([
      'list',
      '--format',
      'json',
      '--',
      'node',
      join(SERVERS, 'many-tools.mjs'),
      '3000',
      '100',
    ]);
    expect(run.stdout.length).toBeGreaterThan(1024 * 1024);
    expect(json(run).tools).toHaveLength(3000);
  });

  it("an error quoting the PR's files reaches the terminal with its control characters escaped", async () => {
    const dir = await tempDir();
    await mkdir(join(dir, '.github'), { recursive: true });
    await writeFile(
      join(dir, '.github/mcp-annotation-auditor.yml'),
      'servers:\n  "x\\e]0;PWNED\\a\\e[31mRED":\n    command: node\n    bogus: 1\n',
    );
    const run = await runCli(['check'], { cwd: dir });
    expect(run.code).toBe(2);
    for (const control of ['\u001b', '\u0007']) expect(run.stderr).not.toContain(control);
    expect(run.stderr).toContain('x\\u001b]0;PWNED\\u0007\\u001b[31mRED');
  });

  // Each command's --help runs in memory (test/unit/usage.test.ts); the process answers one.
  it('--help exits 0 with the usage', async () => {
    const run = await runCli(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Usage/);
  });

  // Further refusals (bad values, unknown options, a missing config file) run in memory in
  // test/unit/usage.test.ts; here the real process answers one of each kind.
  it.each([
    [['bogus'], /Unknown command "bogus"/],
    [['check', '--', 'no-such-command-here'], /the command "no-such-command-here" was not found/],
  ])('%j exits 2 with a readable message', async (args, message) => {
    const run = await runCli(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  // The other thresholds, each against the same warning, run in memory (test/unit/usage.test.ts).
  it('fail-on warning fails on a warning of a published server', async () => {
    const server = [
      'node',
      join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js'),
      ROOT,
    ];
    const dir = await tempDir();
    const list = join(dir, 'c.json');
    await runCli(['update', '--class-list', list, '--', ...server], { cwd: dirname(list) });
    const run = await runCli([
      'check',
      '--policy',
      'claude',
      '--fail-on',
      'warning',
      '--class-list',
      list,
      '--',
      ...server,
    ]);
    // No error: the warning alone fails it.
    expect(run.code, run.stdout).toBe(1);
    expect(run.stdout).toMatch(
      /FAILED: 0 errors, [1-9]\d* warnings?, \d+ notices? \(fail-on: warning\)/,
    );
  });
});

describe('the early start', () => {
  it('starts the server once: the audit claims the process the CLI started before loading', async () => {
    const { dir, starts } = await withStarts();
    const server = counted(starts, ['node', EXAMPLE]);
    for (const args of [
      ['list', '--', ...server],
      ['list', '--env', 'A=1', '--cwd', dir, '--', ...server],
      ['list', '--env=A=1', '--format', 'json', '--', ...server],
    ]) {
      await writeFile(starts, '');
      const run = await runCli(args);
      expect(run.code, run.stderr).toBe(0);
      expect((await readFile(starts, 'utf8')).trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
  });

  it('a server started early but not used (bad options) is stopped', async () => {
    const { starts } = await withStarts();
    const run = await runCli([
      'list',
      '--format',
      'yaml',
      '--',
      ...counted(starts, ['node', EXAMPLE]),
    ]);
    expect(run.code).toBe(2);
    const pids = await startsIn(starts);
    expect(pids.every(Number.isInteger)).toBe(true);
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
  });
});

describe('the config file', () => {
  it('a YAML syntax error exits 2 naming the file and line; values take effect otherwise', async () => {
    const dir = await tempDir();
    const bad = join(dir, 'bad.yml');
    await writeFile(bad, 'policies: [claude\nfailOn: never\n');
    const run = await runCli(['check', '--config', bad, '--', 'node', EXAMPLE]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/The config file .*bad\.yml is not valid YAML at line \d/);
    const good = join(dir, 'good.yml');
    await writeFile(good, `failOn: never\nclassList: ${join(dir, 'none.json')}\n`);
    const ok = await runCli(['check', '--config', good, '--', 'node', EXAMPLE]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('(fail-on: never)');
  });
});
