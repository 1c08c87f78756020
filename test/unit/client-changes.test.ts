// What a class or hint change does in each client the repository configures: the decision
// before and after, through the same committed config, in the JSON (changes[].clients), read
// back from a report file, and in the PR comment.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../src/clients/client.js';
import { CLIENTS } from '../../src/clients/registry.js';
import { renderComment } from '../../src/report/comment.js';
import type { Report } from '../../src/report/report.js';
import { parseReport } from '../../src/report/reportfile.js';
import { fakeClient } from '../support/fake-client.js';
import { runCliInMemory } from '../support/in-memory.js';
import { notesSpec, specServer, tempDir, withAnnotations } from '../support/cli.js';

/** The Claude Code rules `rules` writes for the example server with the default mapping. */
const SETTINGS = `${JSON.stringify(
  {
    permissions: {
      allow: ['mcp__notes__list_notes'],
      ask: ['mcp__notes__add_note'],
      deny: ['mcp__notes__delete_note'],
    },
  },
  null,
  2,
)}\n`;

/**
 * A repository whose class list records the example server as it is, with `files` committed;
 * returns it and the command line of the head server, whose delete_note no longer declares
 * itself destructive (delete -> edit).
 */
async function repository(files: Record<string, string>): Promise<{ dir: string; head: string[] }> {
  const dir = await tempDir();
  const spec = await notesSpec();
  const base = await specServer(dir, 'base.json', spec);
  const head = await specServer(
    dir,
    'head.json',
    withAnnotations(spec, 'delete_note', { destructiveHint: false }),
  );
  const update = await runCliInMemory(['update', '--server-name', 'notes', '--', ...base], {
    cwd: dir,
  });
  expect(update.code, update.stderr).toBe(0);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return { dir, head };
}

const check = (dir: string, head: string[]) =>
  runCliInMemory(['check', '--format', 'json', '--server-name', 'notes', '--', ...head], {
    cwd: dir,
  });

/** The comment's section on the clients, from a report file read back. */
function clientSection(json: string): string[] {
  const report = parseReport(json, 'report.json') as Report;
  const body = renderComment(report.servers[0] as Report['servers'][number], {
    failOn: 'error',
    classList: 'mcp-tool-classes.json',
    runFindings: report.findings,
  });
  const lines = body.split('\n');
  const start = lines.indexOf('#### What the change does in each client');
  if (start < 0) return [];
  const end = lines.indexOf('', start + 2);
  return lines.slice(start, end);
}

describe('the PR comment says what a class change does in each client', () => {
  it("Codex's auto now runs delete_note unasked; Claude Code's committed rule still denies it", async () => {
    const { dir, head } = await repository({
      '.codex/config.toml': '[mcp_servers.notes]\ncommand = "node"\n',
      '.claude/settings.json': SETTINGS,
    });
    const run = await check(dir, head);
    const json = JSON.parse(run.stdout) as {
      changes: { tool: string; clients?: Record<string, unknown> }[];
    };
    const change = json.changes.find((c) => c.tool === 'delete_note');
    expect(change?.clients).toEqual({
      'claude-code': {
        before: {
          decision: 'deny',
          rule: 'mcp__notes__delete_note',
          file: '.claude/settings.json',
          line: 10,
        },
        after: {
          decision: 'deny',
          rule: 'mcp__notes__delete_note',
          file: '.claude/settings.json',
          line: 10,
        },
      },
      codex: {
        before: {
          decision: 'ask',
          byClient: 'auto (Codex’s default: no approval_mode set): destructiveHint true',
        },
        after: {
          decision: 'allow',
          byClient:
            'auto (Codex’s default: no approval_mode set): destructiveHint and openWorldHint declared false',
        },
      },
    });
    // Read back from the report file a workflow_run job comments from, and rendered.
    const back = parseReport(run.stdout, 'report.json') as Report;
    expect(back.servers[0]?.changes.find((c) => c.tool === 'delete_note')?.clients).toEqual(
      change?.clients,
    );
    expect(clientSection(run.stdout)).toEqual([
      '#### What the change does in each client',
      '',
      '- `delete_note`: class delete -> edit, destructiveHint true -> false',
      '  - Claude Code: it is still refused: `mcp__notes__delete_note` in `.claude/settings.json` line 10.',
      '  - Codex CLI: it now runs without asking (before, it asked): auto (Codex’s default: no approval\\_mode set): destructiveHint and openWorldHint declared false.',
    ]);
  });

  it('says VS Code and Cursor decide from their documentation: both still ask for delete_note', async () => {
    const { dir, head } = await repository({
      '.vscode/mcp.json': '{\n  "servers": {\n    "notes": { "command": "node" }\n  }\n}\n',
      '.cursor/permissions.json': '{\n  "mcpAllowlist": ["notes:list_notes"]\n}\n',
    });
    const run = await check(dir, head);
    expect(clientSection(run.stdout)).toEqual([
      '#### What the change does in each client',
      '',
      '- `delete_note`: class delete -> edit, destructiveHint true -> false',
      '  - VS Code (from their documentation): it still asks first: VS Code asks before an MCP tool without readOnlyHint: true, until a user allows it for the session, the workspace or always in `.vscode/mcp.json` line 3.',
      '  - Cursor (from their documentation): it still asks first: no mcpAllowlist entry: Cursor asks before each call.',
    ]);
  });

  describe('a client the config file lists, configured by no committed file', () => {
    const registry = CLIENTS as Client[];
    beforeAll(() => {
      registry.push(fakeClient({ verified: 'documentation' }));
    });
    afterAll(() => {
      registry.splice(
        registry.findIndex((c) => c.id === 'fake'),
        1,
      );
    });

    it('is said from its documentation, with no finding of its defaults', async () => {
      const { dir, head } = await repository({
        '.github/mcp-annotation-auditor.yml': 'clients: [fake]\n',
      });
      const run = await check(dir, head);
      const json = JSON.parse(run.stdout) as { findings: { message: string }[] };
      expect(json.findings.filter((f) => f.message.includes('Fake CLI'))).toEqual([]);
      expect(clientSection(run.stdout)).toEqual([
        '#### What the change does in each client',
        '',
        '- `delete_note`: class delete -> edit, destructiveHint true -> false',
        '  - Fake CLI (from their documentation): it still asks first: it asks by default.',
      ]);
    });
  });
});
