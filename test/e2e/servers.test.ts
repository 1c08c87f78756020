// Several servers in one config file through the real CLI (their variants and the mcpServers
// shape of .mcp.json run in memory in test/unit/servers.test.ts), and the protocol eras (their
// variants in memory too).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXAMPLE, json, runCli, SERVERS, tempDir, writeConfig } from '../support/cli.js';
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
  it('each is audited and reported under its own name', async () => {
    const dir = await tempDir();
    const file = await writeConfig(dir, { servers: toolsets() });
    const run = await runCli(['list', '--format', 'json', '--config', file]);
    expect(run.code, run.stderr).toBe(0);
    const r = report(run);
    expect(r.servers.map((s) => [s.server, s.counts.tools])).toEqual([
      ['notes', 3],
      ['notes-readonly', 1],
    ]);
    expect(r.tools.map((t) => t.fullName)).toEqual([
      'mcp__notes__list_notes',
      'mcp__notes__add_note',
      'mcp__notes__delete_note',
      'mcp__notes-readonly__list_notes',
    ]);
    expect(new Set(r.tools.map((t) => t.server))).toEqual(new Set(['notes', 'notes-readonly']));
    const text = await runCli(['list', '--config', file]);
    expect(text.stdout).toMatch(/^notes \(node \S+server\.mjs, legacy era\): 3 tools/m);
    expect(text.stdout).toMatch(
      /^notes-readonly \(node \S+server\.mjs --read-only, legacy era\): 1 tool:/m,
    );
  });

  it('a server that cannot be audited is named in the message', async () => {
    const file = await writeConfig(await tempDir(), {
      servers: {
        notes: { command: 'node', args: [EXAMPLE] },
        broken: { command: 'node', args: [join(SERVERS, 'exit-at-once.mjs')] },
      },
    });
    expectCouldNotAudit(
      await runCli(['check', '--config', file]),
      /^mcp-annotation-auditor: Server "broken": The server exited with code 3 during the handshake/,
    );
  });
});

describe('protocol eras', () => {
  const ERA_SPLIT = join(SERVERS, 'era-split.mjs');
  const MODERN_ONLY = join(SERVERS, 'modern-only.mjs');

  it('both: a tool whose annotations differ between eras is an era-mismatch', async () => {
    const run = await runCli([
      'list',
      '--format',
      'json',
      '--protocol-era',
      'both',
      '--',
      'node',
      ERA_SPLIT,
    ]);
    expect(run.code, run.stderr).toBe(0);
    const r = report(run);
    expect(r.servers[0]?.era).toBe('both');
    expect(r.findings.filter((f) => f.rule === 'era-mismatch')).toMatchObject([
      {
        tool: 'sync_notes',
        message:
          'Annotations differ between eras (legacy -> modern): openWorldHint false -> absent.',
      },
    ]);
  });

  // The default's and the config file's era run in memory (test/unit/servers.test.ts).
  it('modern lists a server that only speaks 2026-07-28', async () => {
    const run = await runCli([
      'list',
      '--format',
      'json',
      '--protocol-era',
      'modern',
      '--',
      'node',
      MODERN_ONLY,
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(report(run).tools.map((t) => t.name)).toEqual(['list_notes', 'add_note', 'delete_note']);
  });

  it('legacy on a modern-only server: exit 2, and the era to use', async () => {
    expectCouldNotAudit(
      await runCli(['list', '--', 'node', MODERN_ONLY]),
      /The server only speaks the 2026-07-28 protocol era and refused the legacy handshake \(initialize\)\. Audit it with --protocol-era modern/,
    );
  });

  it('modern on a legacy-only server: exit 2, and the era to use', async () => {
    expectCouldNotAudit(
      await runCli([
        'list',
        '--protocol-era',
        'modern',
        '--',
        'node',
        join(SERVERS, 'many-tools.mjs'),
        '10',
      ]),
      /The server does not speak the 2026-07-28 protocol era: it did not answer server\/discover with that version\. Audit it with --protocol-era legacy/,
    );
  });
});
