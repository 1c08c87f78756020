// The CLI's commands in-process (src/cli/commands.ts, not the bundle), servers in memory: what each command accepts,
// what it says, and how a base class list that does not parse is taken.
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli as runCommands } from '../../src/cli/commands.js';
import { describeError } from '../../src/errors.js';
import { inMemory } from '../support/in-memory.js';
import {
  droppedHintServers,
  EXAMPLE,
  notesSpec,
  specServer,
  tempDir,
  withAnnotations,
} from '../support/cli.js';

/**
 * The CLI's commands, their servers in memory. An update writes only inside the repository of
 * the current folder, so it runs from the folder of the class list it names.
 */
async function runCli(argv: string[]) {
  const list = argv[0] === 'update' ? argv[argv.indexOf('--class-list') + 1] : undefined;
  const before = process.cwd();
  if (list !== undefined) process.chdir(dirname(list));
  try {
    return await runCommands(argv, { connect: inMemory });
  } finally {
    process.chdir(before);
  }
}

/** What the user reads when the command is refused (exit 2). */
async function refusal(argv: string[]): Promise<string> {
  try {
    await runCli(argv);
  } catch (error) {
    return describeError(error);
  }
  throw new Error(`accepted: ${argv.join(' ')}`);
}

describe('flags a command would ignore are refused', () => {
  it.each([
    [['list', '--fail-on', 'error'], '--fail-on would be ignored: list does not pass or fail'],
    [['list', '--fail-on', 'never'], '--fail-on would be ignored'],
    [['list', '--base', 'base.json'], '--base would be ignored: list compares'],
    [['list', '--base-ref', 'HEAD'], '--base-ref would be ignored: list compares'],
    [['list', '--approved'], '--approved would be ignored: list does not judge findings'],
    [['update', '--fail-on', 'warning'], '--fail-on would be ignored: update records'],
    [['update', '--policy', 'explicit'], '--policy would be ignored: update checks no policies'],
    [['update', '--base', 'base.json'], '--base would be ignored: update writes the class list'],
    [['update', '--base-ref', 'HEAD'], '--base-ref would be ignored: update writes'],
    [['update', '--approved'], '--approved would be ignored: update does not judge findings'],
  ])('%j exits 2 saying why', async (args, message) => {
    const text = await refusal([...args, '--', 'node', EXAMPLE]);
    expect(text).toContain(message);
    expect(text).toContain(`Run mcp-annotation-auditor ${args[0]} --help for usage.`);
  });

  it('check still takes them all', async () => {
    const dir = await tempDir();
    const list = join(dir, 'classes.json');
    await runCli(['update', '--class-list', list, '--', 'node', EXAMPLE]);
    const run = await runCli([
      'check',
      '--fail-on',
      'never',
      '--policy',
      'explicit',
      '--approved',
      '--base',
      list,
      '--class-list',
      list,
      '--',
      'node',
      EXAMPLE,
    ]);
    expect(run.exitCode, run.stdout).toBe(0);
  });
});

describe('list --format json', () => {
  it('says "listed", not "passed", however many errors it lists', async () => {
    const dir = await tempDir();
    const spec = await notesSpec();
    const bare = await specServer(dir, 'bare.json', {
      ...spec,
      tools: spec.tools.map((t) => ({ ...t, annotations: {} })),
    });
    const run = await runCli(['list', '--format', 'json', '--', ...bare]);
    const report = JSON.parse(run.stdout) as { result: string; counts: { error: number } };
    expect(run.exitCode).toBe(0);
    expect(report.counts.error).toBeGreaterThan(0);
    expect(report.result).toBe('listed');
  });
});

describe('a repeated policy', () => {
  it('is enforced once: each finding, and the counts, once', async () => {
    const dir = await tempDir();
    const spec = await notesSpec();
    const bare = await specServer(
      dir,
      'bare.json',
      withAnnotations(spec, 'delete_note', { openWorldHint: undefined }),
    );
    const list = join(dir, 'classes.json');
    await runCli(['update', '--class-list', list, '--', ...bare]);
    const errors = async (...policy: string[]) => {
      const run = await runCli([
        'check',
        '--format',
        'json',
        '--class-list',
        list,
        ...policy,
        '--',
        ...bare,
      ]);
      const report = JSON.parse(run.stdout) as {
        counts: { error: number };
        findings: { rule: string }[];
      };
      return [
        report.counts.error,
        report.findings.filter((f) => f.rule === 'policy-openai').length,
      ];
    };
    expect(await errors('--policy', 'openai')).toEqual([1, 1]);
    expect(await errors('--policy', 'openai,openai')).toEqual([1, 1]);
    expect(await errors('--policy', 'openai', '--policy', 'openai')).toEqual([1, 1]);
  });
});

describe('a base class list that does not parse', () => {
  let dir: string;
  let list: string;
  let dropped: string[];

  beforeAll(async () => {
    dir = await tempDir();
    let original: string[];
    ({ original, dropped } = await droppedHintServers(dir));
    list = join(dir, 'mcp-tool-classes.json');
    await runCli(['update', '--class-list', list, '--', ...original]);
  });

  it('--base only warns, on stderr, naming the file and line, and HEAD is compared instead', async () => {
    const broken = join(dir, 'broken.json');
    await writeFile(broken, '{"version":1,"tools":{');
    const run = await runCli(['check', '--class-list', list, '--base', broken, '--', ...dropped]);
    // HEAD, as the action compares: the live server's dropped hint is unrecorded drift there.
    expect(run.exitCode, run.stderr).toBe(1);
    expect(run.stdout).toContain('unrecorded-change');
    expect(run.stderr).toBe(
      `mcp-annotation-auditor: warning: The class list ${broken} is not valid JSON at line 1, column 23: the file ends too early. Fix that line (or restore the file with git checkout -- ${broken}); the auditor will not overwrite a file it cannot read. Comparing with the class list at HEAD only.\n`,
    );
  });

  it('a base that parses says nothing on stderr', async () => {
    const run = await runCli(['check', '--class-list', list, '--base', list, '--', ...dropped]);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('hint-dropped');
  });
});

describe("update's verdict", () => {
  it('says there is nothing to commit when nothing changed', async () => {
    const dir = await tempDir();
    const list = join(dir, 'classes.json');
    const first = await runCli(['update', '--class-list', list, '--', 'node', EXAMPLE]);
    expect(first.stdout).toContain(`UPDATED: ${list} (3 tools). Review the diff and commit it.`);
    const again = await runCli(['update', '--class-list', list, '--', 'node', EXAMPLE]);
    expect(again.stdout.trim().split('\n').at(-1)).toBe(
      `UNCHANGED: ${list} (3 tools). Nothing changed, so there is nothing to commit.`,
    );
    const markdown = await runCli([
      'update',
      '--format',
      'markdown',
      '--class-list',
      list,
      '--',
      'node',
      EXAMPLE,
    ]);
    expect(markdown.stdout).toContain('nothing to commit');
  });

  it('counts the entry kept for a tool listed malformed, and says why it was kept', async () => {
    const dir = await tempDir();
    const spec = await notesSpec();
    const original = await specServer(dir, 'v1.json', spec);
    const list = join(dir, 'classes.json');
    await runCli(['update', '--class-list', list, '--', ...original]);
    // add_note malformed, and delete_note renamed, so the file changes but keeps add_note's entry.
    const next = await specServer(dir, 'v2.json', {
      ...withAnnotations(spec, 'add_note', { destructiveHint: 'yes' }),
      tools: withAnnotations(spec, 'add_note', { destructiveHint: 'yes' }).tools.map((t) =>
        t.name === 'delete_note' ? { ...t, name: 'remove_note' } : t,
      ),
    });
    const run = await runCli(['update', '--class-list', list, '--', ...next]);
    expect(run.stdout.trim().split('\n').at(-1)).toBe(
      `UPDATED: ${list} (3 tools; 1 kept as reviewed because its tool was listed malformed). Review the diff and commit it.`,
    );
    const written = JSON.parse(await readFile(list, 'utf8')) as { tools: object };
    expect(Object.keys(written.tools)).toHaveLength(3);
  });
});
