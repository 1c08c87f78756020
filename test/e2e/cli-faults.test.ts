// Defects a fault-injection pass on the CLI found, each run through the committed bundle.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  droppedHintServers,
  json,
  notesSpec,
  runCli,
  SERVERS,
  specServer,
  tempDir,
  withAnnotations,
} from '../support/cli.js';
import { git } from '../support/git.js';

describe('a base that cannot be found is an error, never an empty base', () => {
  let dir: string;
  let dropped: string[];

  beforeAll(async () => {
    dir = await tempDir();
    let original: string[];
    ({ original, dropped } = await droppedHintServers(dir));
    await runCli(['update', '--', ...original], { cwd: dir });
    await git(dir, 'init', '-q');
    await git(dir, 'add', 'mcp-tool-classes.json');
    await git(dir, 'commit', '-q', '-m', 'class list');
    // The PR records the dropped hint: only the base shows it.
    await runCli(['update', '--', ...dropped], { cwd: dir });
  });

  it('--base naming a file that is not there exits 2 and says how to make one', async () => {
    const run = await runCli(['check', '--base', 'base.jsn', '--', ...dropped], { cwd: dir });
    expect(run.code, run.stdout).toBe(2);
    expect(run.stderr).toContain('Could not read --base base.jsn');
    expect(run.stderr).toContain('--base-ref');
  });

  it('--base-ref finds the class list given by an absolute path', async () => {
    const list = join(dir, 'mcp-tool-classes.json');
    for (const path of ['mcp-tool-classes.json', list]) {
      const run = await runCli(
        ['check', '--format', 'json', '--class-list', path, '--base-ref', 'HEAD', '--', ...dropped],
        { cwd: dir },
      );
      expect(run.code, `${path}: ${run.stderr}`).toBe(1);
      expect(json(run).findings.map((f) => f.rule)).toContain('hint-dropped');
    }
  });
});

describe('a recorded tool the server now lists malformed', () => {
  it('is not "no longer served", and update keeps its reviewed entry and reason', async () => {
    const dir = await tempDir();
    const spec = await notesSpec();
    const original = await specServer(dir, 'v1.json', spec);
    const malformed = await specServer(
      dir,
      'v2.json',
      withAnnotations(spec, 'delete_note', { destructiveHint: 'yes' }),
    );
    await runCli(['update', '--', ...original], { cwd: dir });
    const path = join(dir, 'mcp-tool-classes.json');
    const list = JSON.parse(await readFile(path, 'utf8')) as {
      tools: Record<string, { reason?: string }>;
    };
    (list.tools['mcp__notes__delete_note'] as { reason?: string }).reason = 'reviewed by security';
    await writeFile(path, `${JSON.stringify(list, null, 2)}\n`);
    const recorded = await readFile(path, 'utf8');

    const check = await runCli(['check', '--format', 'json', '--', ...malformed], { cwd: dir });
    expect(check.code).toBe(1);
    const findings = json(check).findings;
    expect(findings.map((f) => `${f.rule}:${f.tool ?? ''}`)).toEqual([
      'malformed-tool:delete_note',
    ]);
    expect(check.stdout).not.toContain('no longer served');

    const update = await runCli(['update', '--', ...malformed], { cwd: dir });
    expect(update.code, update.stderr).toBe(0);
    expect(await readFile(path, 'utf8')).toBe(recorded);
  });
});

describe('waivers in a run of only some servers', () => {
  it("a waiver of another server's tool, or of a bare name, is not called stale", async () => {
    const dir = await tempDir();
    const spec = await notesSpec();
    const a = await specServer(dir, 'a.json', { ...spec, name: 'a' });
    const b = await specServer(dir, 'b.json', { ...spec, name: 'b' });
    const server = (cmd: string[]) =>
      `{command: ${JSON.stringify(cmd[0])}, args: ${JSON.stringify(cmd.slice(1))}}`;
    await writeFile(
      join(dir, 'auditor.yml'),
      [
        'waivers:',
        '  - {rule: hint-dropped, tool: mcp__b__delete_note, reason: reviewed}',
        '  - {rule: hint-dropped, tool: delete_note, reason: reviewed}',
        '  - {rule: hint-dropped, tool: mcp__a__list_notes, reason: reviewed}',
        'servers:',
        `  a: ${server(a)}`,
        `  b: ${server(b)}`,
        '',
      ].join('\n'),
    );
    await runCli(['update', '--config', 'auditor.yml'], { cwd: dir });
    const run = await runCli(
      ['check', '--format', 'json', '--config', 'auditor.yml', '--server', 'a'],
      { cwd: dir },
    );
    const stale = json(run).findings.filter((f) => f.rule === 'stale-waiver');
    // Only the waiver of a tool on the audited server is known to match nothing.
    expect(stale.map((f) => f.tool)).toEqual(['mcp__a__list_notes']);
  });
});

describe('two tools with one name', () => {
  it('update records the riskier of them (class, then reach) and counts the entries it wrote', async () => {
    const dir = await tempDir();
    const raw = pathToFileURL(join(SERVERS, 'raw-stdio.mjs')).href;
    const tool = (name: string, readOnlyHint: boolean, destructiveHint: boolean) => ({
      name,
      title: name,
      inputSchema: { type: 'object' },
      annotations: { readOnlyHint, destructiveHint, openWorldHint: false },
    });
    // Riskier first, then a read tool of the same name: neither order may understate it.
    const tools = [
      tool('purge', false, true),
      tool('purge', true, false),
      tool('list', true, false),
    ];
    await writeFile(
      join(dir, 'dup.mjs'),
      `import { serveRawStdio } from ${JSON.stringify(raw)};\n` +
        `serveRawStdio({ listTools: () => ({ tools: ${JSON.stringify(tools)} }) });\n`,
    );
    const update = await runCli(['update', '--', 'node', 'dup.mjs'], { cwd: dir });
    expect(update.code, update.stderr).toBe(0);
    expect(update.stdout).toContain('duplicate-tool');
    expect(update.stdout).toMatch(/UPDATED: mcp-tool-classes\.json \(2 tools\)/);
    const list = JSON.parse(await readFile(join(dir, 'mcp-tool-classes.json'), 'utf8')) as {
      tools: Record<string, { class: string }>;
    };
    expect(Object.keys(list.tools).sort()).toEqual([
      'mcp__raw-fixture__list',
      'mcp__raw-fixture__purge',
    ]);
    expect(list.tools['mcp__raw-fixture__purge']?.class).toBe('delete');

    // Of two read tools, the open one (the riskier reach), whichever comes first.
    const open = { ...tool('peek', true, false), annotations: { readOnlyHint: true } };
    await writeFile(
      join(dir, 'dup.mjs'),
      `import { serveRawStdio } from ${JSON.stringify(raw)};\n` +
        `serveRawStdio({ listTools: () => ({ tools: ${JSON.stringify([tool('peek', true, false), open])} }) });\n`,
    );
    expect((await runCli(['update', '--', 'node', 'dup.mjs'], { cwd: dir })).code).toBe(0);
    const again = JSON.parse(await readFile(join(dir, 'mcp-tool-classes.json'), 'utf8')) as {
      tools: Record<string, { class: string; reach: string }>;
    };
    expect(again.tools['mcp__raw-fixture__peek']).toMatchObject({ class: 'read', reach: 'open' });
  });
});
