// The first runs of a new user, the CLI in memory: .mcp.json found and its key used as the name, a
// first check that teaches, identical findings grouped, typos answered with the key or option
// meant, options that do nothing said. test/e2e/adoption.test.ts runs the real CLI for each.
import { describe, expect, it } from 'vitest';
import { VERSION } from '../../src/version.js';
import { EXAMPLE, json, notesSpec, specServer, tempDir, writeConfig } from '../support/cli.js';
import { runCliInMemory as runCli } from '../support/in-memory.js';

const mcpJson = (dir: string, servers: Record<string, unknown>) =>
  writeConfig(dir, { mcpServers: servers }, '.mcp.json');

describe('.mcp.json', () => {
  it('is read when nothing names a server, and says so', async () => {
    const dir = await tempDir();
    await mcpJson(dir, { notes: { command: 'node', args: [EXAMPLE], type: 'stdio' } });
    const run = await runCli(['list'], { cwd: dir });
    expect(run.code).toBe(0);
    // The server's path is outside the folder the audit runs in: it is not shown.
    expect(run.stdout).toMatch(/^notes \(node \*\*\*, legacy era\): 3 tools/);
    expect(run.stderr).toContain('servers from .mcp.json (no .github/mcp-annotation-auditor.yml)');
  });

  it('names a server given after -- by its key there, else by serverInfo with how to pin it', async () => {
    const dir = await tempDir();
    await mcpJson(dir, { 'my-notes': { command: 'node', args: [EXAMPLE] } });
    const keyed = await runCli(['list', '--format', 'json', '--', 'node', EXAMPLE], { cwd: dir });
    expect(json(keyed).tools[0]).toMatchObject({ server: 'my-notes' });
    expect(keyed.stderr).toContain('server name "my-notes": its key in .mcp.json');

    const other = await tempDir();
    const plain = await runCli(['list', '--', 'node', EXAMPLE], { cwd: other });
    expect(plain.stdout).toContain(
      'Note: the name "notes" (the <server> in mcp__<server>__<tool>) comes from the server\'s serverInfo.name "notes". Clients name its tools by their config key',
    );
    expect(plain.stdout).toContain('pin that name with --server-name KEY');
  });

  it.each([
    ['evn', 'env'],
    ['tpye', 'type'],
    ['agrs', 'args'],
  ])('refuses the misspelt key %s in a server entry, naming %s', async (typo, meant) => {
    const dir = await tempDir();
    await mcpJson(dir, { notes: { command: 'node', args: [EXAMPLE], [typo]: {} } });
    const run = await runCli(['list'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `Server "notes" in .mcp.json has an unknown key "${typo}"; did you mean "${meant}"?`,
    );
  });

  it.each([
    ['evn', 'env'],
    ['agrs', 'args'],
    ['comand', 'command'],
  ])("refuses the misspelt key %s under an HTTP server's start, naming %s", async (typo, meant) => {
    const dir = await tempDir();
    const start = { command: 'node', args: [EXAMPLE], [typo]: typo === 'comand' ? 'node' : [] };
    await mcpJson(dir, { notes: { type: 'http', url: 'http://127.0.0.1:9/mcp', start } });
    const run = await runCli(['list'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `The start command of server "notes" in .mcp.json has an unknown key "${typo}"; did you mean "${meant}"?`,
    );
    expect(run.stderr).toContain('start has command, args, cwd, env');
  });

  it("accepts and ignores other clients' keys", async () => {
    const dir = await tempDir();
    await mcpJson(dir, {
      notes: { command: 'node', args: [EXAMPLE], disabled: false, alwaysAllow: [], timeout: 60 },
    });
    expect((await runCli(['list'], { cwd: dir })).code).toBe(0);
  });
});

describe('the first check', () => {
  it('starts with how to write the class list, groups identical findings, and says what next', async () => {
    const dir = await tempDir();
    const tools = Array.from({ length: 24 }, (_, i) => ({
      name: `tool_${String(i + 1).padStart(2, '0')}`,
      title: `Tool ${i + 1}`,
      annotations: { title: `Tool ${i + 1}`, readOnlyHint: true },
    }));
    const server = await specServer(dir, 'many.json', { name: 'many', tools });
    const run = await runCli(['check', '--server-name', 'many', '--', ...server], { cwd: dir });
    expect(run.code).toBe(1);
    const lines = run.stdout.split('\n');
    expect(lines.slice(0, 3)).toEqual([
      'No class list yet: mcp-tool-classes.json does not exist. To start one:',
      '  1. Run this command, once you have filled in what its comment names:',
      // The fixture server is outside the folder the audit runs in: its path is not shown.
      `       npx mcp-annotation-auditor@${VERSION} update --server-name many -- node '***' ${server[2]} # replace each *** with the secret it stands for`,
    ]);
    expect(run.stdout).toMatch(
      /error\s+policy-openai\s+24 tools: tool_01, tool_02, tool_03, tool_04 and 20 more\s+The OpenAI Apps SDK requires/,
    );
    expect(run.stdout.match(/policy-openai/g)).toHaveLength(2); // the row and its fix
    expect(lines.at(-2)).toMatch(
      /^FAILED: 25 errors, .*Next: run `npx mcp-annotation-auditor@[^`]+`, review mcp-tool-classes\.json and commit it; then fix or waive the other findings\.$/,
    );
    const markdown = await runCli(
      ['check', '--format', 'markdown', '--server-name', 'many', '--', ...server],
      { cwd: dir },
    );
    expect(markdown.stdout).toContain('**No class list yet**');
    expect(markdown.stdout).toContain(
      '| error | `policy-openai` | 24 tools: tool\\_01, tool\\_02, tool\\_03, tool\\_04 and 20 more |',
    );
    // The JSON report keeps each finding.
    const report = await runCli(['check', '--format', 'json', '--', ...server], { cwd: dir });
    expect(json(report).findings.filter((f) => f.rule === 'policy-openai')).toHaveLength(24);
  });

  it('shows waiver reasons and counts one tool as one tool', async () => {
    const dir = await tempDir();
    const spec = await notesSpec();
    const one = { ...spec, tools: spec.tools.filter((t) => t.name === 'list_notes') };
    one.tools = one.tools.map((t) => ({
      ...t,
      annotations: { ...t.annotations, openWorldHint: undefined },
    }));
    const server = await specServer(dir, 'one.json', one);
    const config = await writeConfig(dir, {
      waivers: [{ rule: 'policy-openai', tool: 'list_notes', reason: 'closed by design' }],
    });
    const run = await runCli(['check', '--config', config, '--', ...server], { cwd: dir });
    expect(run.stdout).toMatch(/1 tool: 1 read/);
    expect(run.stdout).toMatch(/error \(waived: closed by design\)\s+policy-openai\s+list_notes/);
  });
});

describe('typos and options that do nothing', () => {
  it.each([
    [['chek', '--', 'node', EXAMPLE], 'Unknown command "chek"; did you mean check?'],
    [
      ['check', '--polcy', 'openai', '--', 'node', EXAMPLE],
      'Unknown option --polcy; did you mean --policy?',
    ],
    [['check', '--format'], '--format needs a value: write --format VALUE.'],
    [['check', '--approved=yes'], '--approved is a switch and takes no value'],
  ])('%j is answered in our words', async (args, message) => {
    const run = await runCli(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stderr).not.toMatch(/parseArgs|positional argument/);
  });

  it('warns about --server beside a command, and --env NAME when NAME is not set', async () => {
    const dir = await tempDir();
    delete process.env.AUDITOR_TEST_UNSET;
    const run = await runCli(
      ['list', '--server', 'x', '--env', 'AUDITOR_TEST_UNSET', '--', 'node', EXAMPLE],
      { cwd: dir },
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      'warning: --server has no effect: it chooses among the servers of the config file, and this run audits the server given with --.',
    );
    expect(run.stderr).toContain(
      'warning: --env AUDITOR_TEST_UNSET: AUDITOR_TEST_UNSET is not set in this environment',
    );
  });
});
