// The first runs of a new user through the real CLI, one test per feature: .mcp.json found (and a
// command with spaces in it, which only a real start can refuse), a typo answered, a failing server's cause shown rather than its usage text. Their variants run
// in memory in test/unit/adoption.test.ts.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXAMPLE, runCli, tempDir, writeConfig } from '../support/cli.js';

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

  it('says to split off args when a config command has spaces', async () => {
    const dir = await tempDir();
    await mcpJson(dir, { notes: { command: 'node ./server.mjs' } });
    const run = await runCli(['list'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Split off the arguments: command: node, args: [./server.mjs]');
  });
});

describe('typos', () => {
  it('are answered in our words by the real CLI', async () => {
    const run = await runCli(['chek', '--', 'node', EXAMPLE]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^mcp-annotation-auditor: Unknown command "chek"; did you mean check\?/,
    );
    expect(run.stdout).toBe('');
  });
});

describe('a server that fails', () => {
  it('shows the line that says why, above the usage text it printed after', async () => {
    const dir = await tempDir();
    const script = join(dir, 'cli-server.mjs');
    const usage = Array.from({ length: 40 }, (_, i) => `  --option-${i}  does thing ${i}`);
    await writeFile(
      script,
      `process.stderr.write(${JSON.stringify(['Error: missing required option --token', 'Usage: server [options]', ...usage].join('\n'))} + '\\n'); process.exit(1);\n`,
    );
    const run = await runCli(['list', '--', 'node', script], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Server stderr:\nError: missing required option --token\n[… ');
    expect(run.stderr).toMatch(/\[… \d+ lines left out …\]\n {2}--option-28 /);
    expect(run.stderr).toContain('  --option-39  does thing 39');
    expect(run.stderr).not.toContain('--option-5 ');
  });
});
