// Several servers in one config file (a monorepo, or one server in several toolset modes) and the
// mcpServers shape of .mcp.json, and the protocol eras' variants, the CLI in memory.
// test/e2e/servers.test.ts runs the real CLI.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXAMPLE, json, SERVERS, tempDir, writeConfig } from '../support/cli.js';
import { runCliInMemory as runCli } from '../support/in-memory.js';
import { expectCouldNotAudit } from '../support/pids.js';

type Report = Omit<ReturnType<typeof json>, 'tools' | 'findings'> & {
  servers: { server: string; target: string; era: string; counts: { tools: number } }[];
  tools: { server: string; fullName: string; name: string }[];
  findings: { server: string | null; rule: string; tool?: string; message: string }[];
};

const report = (run: Awaited<ReturnType<typeof runCli>>) => json(run) as unknown as Report;

/** Writes a config file (JSON is YAML too) into `dir` and returns its path. */

/** The notes example in its full and its read-only toolset modes. */
function toolsets(extraReadOnlyArgs: string[] = []) {
  return {
    notes: { command: 'node', args: [EXAMPLE] },
    'notes-readonly': { command: 'node', args: [EXAMPLE, '--read-only', ...extraReadOnlyArgs] },
  };
}

describe('several servers in one config file', () => {
  it('update writes both into one class list; check then passes; a change shows under its server', async () => {
    const dir = await tempDir();
    const classList = join(dir, 'classes.json');
    const file = await writeConfig(dir, { classList, servers: toolsets() });
    const update = await runCli(['update', '--config', file], { cwd: dir });
    expect(update.code, update.stderr).toBe(0);
    const written = JSON.parse(await readFile(classList, 'utf8')) as {
      tools: Record<string, { server: string; class: string }>;
    };
    expect(Object.keys(written.tools).sort()).toEqual([
      'mcp__notes-readonly__list_notes',
      'mcp__notes__add_note',
      'mcp__notes__delete_note',
      'mcp__notes__list_notes',
    ]);
    expect(written.tools['mcp__notes-readonly__list_notes']?.server).toBe('notes-readonly');

    const check = await runCli(['check', '--config', file]);
    expect(check.code, check.stdout).toBe(0);
    expect(check.stdout).toContain('PASSED: 0 errors');

    // --server audits one of them, against its own entries only.
    const one = await runCli([
      'check',
      '--format',
      'json',
      '--config',
      file,
      '--server',
      'notes-readonly',
    ]);
    expect(one.code, one.stdout).toBe(0);
    expect(report(one).servers.map((s) => s.server)).toEqual(['notes-readonly']);

    // The read-only mode drops its flag and now lists all three tools: only it drifts.
    const drifted = await writeConfig(dir, {
      classList,
      servers: { ...toolsets(), 'notes-readonly': { command: 'node', args: [EXAMPLE] } },
    });
    const after = await runCli(['check', '--format', 'json', '--config', drifted]);
    expect(after.code).toBe(1);
    const changed = report(after).findings.filter((f) => f.rule === 'unrecorded-change');
    expect(changed.length).toBeGreaterThan(0);
    expect(new Set(changed.map((f) => f.server))).toEqual(new Set(['notes-readonly']));
  });

  it('--server with an unknown name: exit 2, the configured names listed', async () => {
    const file = await writeConfig(await tempDir(), { servers: toolsets() });
    expectCouldNotAudit(
      await runCli(['list', '--config', file, '--server', 'nope']),
      /No server named "nope" in \S+auditor\.yml\. Configured servers: notes, notes-readonly\./,
    );
  });
});

describe('the mcpServers shape of .mcp.json', () => {
  it('is accepted with --config .mcp.json; names become mcp__<name>__ prefixes', async () => {
    const dir = await tempDir();
    await writeConfig(
      dir,
      {
        mcpServers: {
          notes: { type: 'stdio', command: 'node', args: [EXAMPLE], env: {} },
          'notes.read-only': { command: 'node', args: [EXAMPLE, '--read-only'] },
        },
      },
      '.mcp.json',
    );
    const run = await runCli(['list', '--format', 'json', '--config', '.mcp.json'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    const r = report(run);
    expect(r.servers.map((s) => s.server)).toEqual(['notes', 'notes_read-only']);
    expect(r.tools.at(-1)?.fullName).toBe('mcp__notes_read-only__list_notes');
    // --server takes the name as written in the file.
    const one = await runCli(
      ['list', '--format', 'json', '--config', '.mcp.json', '--server', 'notes.read-only'],
      { cwd: dir },
    );
    expect(report(one).servers.map((s) => s.server)).toEqual(['notes_read-only']);
  });

  it('an old HTTP+SSE entry is refused clearly; --server can leave it out', async () => {
    const dir = await tempDir();
    const file = await writeConfig(
      dir,
      {
        mcpServers: {
          notes: { command: 'node', args: [EXAMPLE] },
          legacy: { type: 'sse', url: 'http://127.0.0.1:9/sse' },
        },
      },
      '.mcp.json',
    );
    expectCouldNotAudit(
      await runCli(['list', '--config', file]),
      /Server "legacy" in \S+\.mcp\.json uses the old HTTP\+SSE transport \(type "sse"\), which the auditor does not speak\./,
    );
    const run = await runCli(['list', '--config', file, '--server', 'notes']);
    expect(run.code, run.stderr).toBe(0);
  });
});

describe('protocol eras', () => {
  /** A server whose sync_notes declares openWorldHint false to legacy clients only, as era-split.mjs. */
  async function eraSplit(dir: string): Promise<string[]> {
    const sync = { name: 'sync_notes', annotations: { readOnlyHint: false, idempotentHint: true } };
    const spec = {
      name: 'notes',
      legacy: [{ ...sync, annotations: { ...sync.annotations, openWorldHint: false } }],
      modern: [sync],
    };
    const file = join(dir, 'eras.json');
    await writeFile(file, JSON.stringify(spec));
    return ['node', join(SERVERS, 'era-spec.mjs'), file];
  }

  // test/e2e/servers.test.ts has the built CLI find the mismatch with --protocol-era both.
  it('legacy (the default) alone sees no mismatch', async () => {
    const dir = await tempDir();
    const run = await runCli(['list', '--format', 'json', '--', ...(await eraSplit(dir))]);
    expect(run.code, run.stderr).toBe(0);
    expect(report(run).servers[0]?.era).toBe('legacy');
    expect(report(run).findings.filter((f) => f.rule === 'era-mismatch')).toEqual([]);
  });

  it('protocolEra: both per server in the config file', async () => {
    const dir = await tempDir();
    const [command, ...args] = await eraSplit(dir);
    const file = await writeConfig(dir, {
      servers: { notes: { command, args, protocolEra: 'both' } },
    });
    const run = await runCli(['list', '--config', file]);
    expect(run.stdout).toMatch(/warning\s+era-mismatch\s+sync_notes/);
  });
});
