// Each way a stdio server goes wrong, against a small purpose-built server run by the real CLI:
// a clear message, the documented exit code, bounded time, and no process of ours left behind.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, json, ROOT, runCli } from '../support/cli.js';
import {
  expectCouldNotAudit,
  expectNoneLeft,
  reportedPids,
  waitForPid,
  watched,
} from '../support/pids.js';
import { isAlive, waitUntilGone } from '../support/spawn-fixture.js';

describe('a server that cannot start', () => {
  it('a command that does not exist: exit 2, the command named', async () => {
    // A plain name: a command of another shape (a token, a path outside the repository) is ***.
    const run = await runCli(['list', '--', 'no-such-mcp-server-xyz', '--stdio']);
    expectCouldNotAudit(
      run,
      /Could not start the server: the command "no-such-mcp-server-xyz" was not found\. Check the command for typos/,
    );
  });

  it('a working directory that does not exist is named as such, not as a missing command', async () => {
    const run = await runCli(['list', '--cwd', join(ROOT, 'no-such-dir'), '--', 'node', 'x.mjs']);
    expectCouldNotAudit(
      run,
      /Could not start the server: its working directory .*no-such-dir does not exist\./,
    );
  });

  it('a server that exits at once: exit 2, its exit code and its stderr', async () => {
    const server = await watched('exit-at-once.mjs');
    const run = await runCli(['list', '--', ...server.command]);
    expectCouldNotAudit(
      run,
      /The server exited with code 3 during the handshake \(initialize\), before listing any tools\. Run the server command by hand/,
    );
    expect(run.stderr).toContain('Server stderr:\nfatal: missing config');
    await expectNoneLeft(server.pidFile);
  });

  it('a server that never answers: stopped at the start timeout, then killed', async () => {
    const server = await watched('never-answers.mjs');
    const run = await runCli(['list', '--start-timeout', '2', '--', ...server.command]);
    expectCouldNotAudit(
      run,
      /The server did not answer the handshake \(initialize\) within 2 s\. Check that it speaks MCP over stdio/,
    );
    await expectNoneLeft(server.pidFile);
  });

  it('a server that never answers the modern handshake: the same, naming server/discover', async () => {
    const server = await watched('never-answers.mjs');
    const run = await runCli([
      'list',
      '--protocol-era',
      'modern',
      '--start-timeout',
      '1',
      '--',
      ...server.command,
    ]);
    expectCouldNotAudit(
      run,
      /The server did not answer the handshake \(server\/discover, 2026-07-28\) within 1 s\./,
    );
    await expectNoneLeft(server.pidFile);
  });
});

describe('a server that fails while listing', () => {
  it('exits in the middle of pagination: exit 2, how far it got, no partial report', async () => {
    const server = await watched('exit-mid-pagination.mjs');
    const run = await runCli(['check', '--', ...server.command]);
    expectCouldNotAudit(
      run,
      /The server exited with code 1 while listing tools, after 1 page and 3 tools\./,
    );
    expect(run.stderr).toContain('fatal: lost the tool registry while serving cursor page-2');
    await expectNoneLeft(server.pidFile);
  });

  it('stops answering after the first page: stopped at the list timeout', async () => {
    const server = await watched('stalls-listing.mjs');
    const run = await runCli(['list', '--list-timeout', '1', '--', ...server.command]);
    expectCouldNotAudit(
      run,
      /The server did not finish listing its tools within 1 s \(after 1 page and 3 tools\)\. Raise --list-timeout/,
    );
    await expectNoneLeft(server.pidFile);
  });

  it('repeats a cursor: the loop is stopped and the cursor named', async () => {
    const server = await watched('repeating-cursor.mjs');
    const run = await runCli(['list', '--', ...server.command]);
    expectCouldNotAudit(
      run,
      /The server's pagination loops: page 3 would repeat cursor "page-2"\. The listing was stopped after 2 pages and 4 tools\. Fix the server so each nextCursor leads to a new page/,
    );
    await expectNoneLeft(server.pidFile);
  });
});

describe('a server that misbehaves but can be audited', () => {
  it('non-JSON lines on stdout are a note; every tool is still audited', async () => {
    const server = await watched('noisy-stdout.mjs');
    const text = await runCli(['list', '--', ...server.command]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(
      'Note: the server wrote 5 lines to stdout that are not JSON-RPC messages (first: Server starting...); stdio servers must log to stderr.',
    );
    expect(text.stdout).toMatch(/LISTED: 3 tools \(1 read, 1 edit, 1 delete\)/);
    await expectNoneLeft(server.pidFile);
    const report = json(await runCli(['list', '--format', 'json', '--', ...server.command]));
    expect(report.tools.map((t) => `${t.name}:${t.class}`)).toEqual([
      'list_notes:read',
      'add_note:edit',
      'delete_note:delete',
    ]);
  });

  it('a 20 MB stderr flood does not deadlock the listing', async () => {
    const server = await watched('stderr-flood.mjs', ['20']);
    const run = await runCli(['list', '--format', 'json', '--', ...server.command]);
    expect(run.code, run.stderr).toBe(0);
    expect(json(run).tools).toHaveLength(3);
    await expectNoneLeft(server.pidFile);
  });

  it('a flood before a crash shows only the tail of stderr', async () => {
    const flood =
      "const line = 'x'.repeat(1023) + '\\n'; for (let i = 0; i < 5120; i++) process.stderr.write(line); process.stderr.write('the real reason\\n', () => process.exit(4));";
    const run = await runCli(['list', '--', 'node', '-e', flood]);
    expectCouldNotAudit(run, /The server exited with code 4 during the handshake/);
    expect(run.stderr).toMatch(/the real reason\n$/);
    expect(run.stderr.length).toBeLessThan(10_000);
  });

  it('a malformed tool among good ones is a finding, not a crash', async () => {
    const server = await watched('malformed-tool.mjs');
    const listed = await runCli(['list', '--format', 'json', '--', ...server.command]);
    expect(listed.code, listed.stderr).toBe(0);
    const report = json(listed);
    expect(report.tools.map((t) => t.name)).toEqual(['list_notes', 'add_note', 'delete_note']);
    expect(report.findings.filter((f) => f.rule === 'malformed-tool')).toMatchObject([
      { severity: 'error', tool: 'string_hint' },
      { severity: 'error', tool: '#3' },
      { severity: 'error', tool: 'array_annotations' },
    ]);
    await expectNoneLeft(server.pidFile);
    const checked = await runCli(['check', '--policy', 'claude', '--', ...server.command]);
    expect(checked.code).toBe(1);
    expect(checked.stdout).toMatch(/error\s+malformed-tool\s+string_hint/);
  });
});

describe('a large listing', () => {
  it('10,000 tools in 100 pages are all audited', async () => {
    const server = await watched('many-tools.mjs', ['10000', '100']);
    const run = await runCli(['list', '--format', 'json', '--', ...server.command]);
    expect(run.code, run.stderr).toBe(0);
    const { tools, counts } = json(run);
    expect(tools).toHaveLength(10_000);
    expect(new Set(tools.map((t) => t.name)).size).toBe(10_000);
    expect(tools[0]?.name).toBe('get_record_0000');
    expect(tools.at(-1)?.name).toBe('process_record_9999');
    expect(counts).toMatchObject({ tools: 10_000, read: 2_500, edit: 2_500, delete: 5_000 });
    await expectNoneLeft(server.pidFile);
  });

  it('--max-pages stops a longer listing with exit 2, naming the next cursor', async () => {
    const server = await watched('many-tools.mjs', ['10000', '100']);
    const run = await runCli(['list', '--max-pages', '50', '--', ...server.command]);
    expectCouldNotAudit(
      run,
      /The server has more than 50 pages of tools: the listing was stopped after 50 pages and 5000 tools, with cursor "[\w-]+" still to follow\. Raise --max-pages/,
    );
    await expectNoneLeft(server.pidFile);
  });

  it('--max-tools stops a longer listing with exit 2', async () => {
    const server = await watched('many-tools.mjs', ['10000', '100']);
    const run = await runCli(['list', '--max-tools', '5000', '--', ...server.command]);
    expectCouldNotAudit(
      run,
      /The server listed more than 5000 tools: the listing was stopped after 51 pages and 5100 tools\. Raise --max-tools/,
    );
    await expectNoneLeft(server.pidFile);
  });
});

describe('a listing built to exhaust the auditor: bounded, and a clear message', () => {
  it('an inputSchema nested 5,000 levels deep makes that tool malformed; the others are audited', async () => {
    const server = await watched('hostile-listing.mjs', ['deep']);
    const listed = await runCli(['list', '--format', 'json', '--', ...server.command]);
    expect(listed.code, listed.stderr).toBe(0);
    const report = json(listed);
    expect(report.tools.map((t) => t.name)).toEqual(['list_notes']);
    const malformed = report.findings.filter((f) => f.rule === 'malformed-tool');
    expect(malformed).toMatchObject([{ severity: 'error', tool: 'deep_tool' }]);
    expect(malformed[0]?.message).toContain('inputSchema: nested more than 100 levels deep');
    await expectNoneLeft(server.pidFile);
  });

  it('one page of 130,000 tools gets the max-tools message, not a crash', async () => {
    const server = await watched('hostile-listing.mjs', ['huge-page']);
    const run = await runCli(['list', '--', ...server.command]);
    expectCouldNotAudit(
      run,
      /The server listed more than 100000 tools: the listing was stopped after 1 page and 130000 tools\. Raise --max-tools/,
    );
    await expectNoneLeft(server.pidFile);
  });

  it('a 1 MiB description is kept to its first 4,000 characters', async () => {
    const server = await watched('hostile-listing.mjs', ['long-description']);
    const run = await runCli(['list', '--format', 'json', '--', ...server.command]);
    expect(run.code, run.stderr).toBe(0);
    const [tool] = json(run).tools as { description?: string }[];
    expect(tool?.description).toBe(`${'x'.repeat(3_999)}…`);
  });

  it('more than 128 MiB of listings in all is stopped with a clear message', async () => {
    const server = await watched('hostile-listing.mjs', ['heavy']);
    const run = await runCli(['list', '--', ...server.command]);
    expectCouldNotAudit(
      run,
      /The server sent more than 128 MiB of tool listings: the listing was stopped after 3 pages and 180 tools\. Check what the server puts in its tools/,
    );
    await expectNoneLeft(server.pidFile);
  });

  it('no line of output starts with :: from a tool name, which a runner reads as a workflow command', async () => {
    const server = await watched('hostile-listing.mjs', ['command-name']);
    for (const format of ['text', 'markdown']) {
      const run = await runCli(['list', '--format', format, '--', ...server.command]);
      expect(run.code, run.stderr).toBe(0);
      if (format === 'text') expect(run.stdout).toContain('\\u003a:error::forged');
      for (const line of run.stdout.split('\n')) expect(line).not.toMatch(/^\s*::/);
    }
    const report = json(await runCli(['list', '--format', 'json', '--', ...server.command]));
    expect(report.tools.map((t) => t.name)).toContain('::error::forged');
  });
});

describe('every process is gone when the auditor exits', () => {
  it('a server that ignores SIGTERM is killed: the audit finishes, and the server is gone', async () => {
    const server = await watched('ignores-sigterm.mjs');
    const run = await runCli(['list', '--format', 'json', '--', ...server.command]);
    expect(run.code, run.stderr).toBe(0);
    expect(json(run).tools).toHaveLength(3);
    // It ignores SIGTERM and stays up after stdin ends: only the auditor's SIGKILL ends it.
    await expectNoneLeft(server.pidFile);
  });

  it('...also when the audit fails', async () => {
    const server = await watched('ignores-sigterm.mjs');
    const run = await runCli(['list', '--max-tools', '2', '--', ...server.command]);
    expectCouldNotAudit(run, /The server listed more than 2 tools/);
    await expectNoneLeft(server.pidFile);
  });

  it('a grandchild the server started is killed with it', async () => {
    const server = await watched('spawns-grandchild.mjs');
    const run = await runCli(['list', '--', ...server.command]);
    expect(run.code, run.stderr).toBe(0);
    await expectNoneLeft(server.pidFile, 1);
  });

  it('...also when the audit fails', async () => {
    const server = await watched('spawns-grandchild.mjs');
    const run = await runCli(['list', '--max-tools', '1', '--', ...server.command]);
    expectCouldNotAudit(run, /The server listed more than 1 tools/);
    await expectNoneLeft(server.pidFile, 1);
  });

  it('the auditor itself interrupted (SIGTERM, as a cancelled CI job): the server goes too', async () => {
    const server = await watched('never-answers.mjs');
    const child = spawn(process.execPath, [CLI, 'list', '--', ...server.command], {
      cwd: ROOT,
      stdio: 'ignore',
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    await waitForPid(server.pidFile);
    const { pid } = await reportedPids(server.pidFile);
    expect(isAlive(pid)).toBe(true);
    child.kill('SIGTERM');
    expect(await exited).toBe(143);
    await waitUntilGone(pid);
  });
});
