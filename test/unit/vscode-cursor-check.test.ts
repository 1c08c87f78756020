// `check` on a repository with VS Code's or Cursor's committed files: a Cursor allowlist entry
// that lets the delete tool run unasked fails the check, naming Cursor, the file and the line; a
// workspace chat.tools.global.autoApprove is reported as doing nothing; each tool's decision is
// in tools[].clients; the rules each client's `rules --client X --write` writes clear the rule
// findings. Both models are from the clients' documentation (no oracle runs them).
import { describe, expect, it } from 'vitest';
import { cursor } from '../../src/clients/cursor/index.js';
import { vscode } from '../../src/clients/vscode/index.js';
import { checkNotes, clientRepository, ruleFindings } from '../support/client-check.js';
import { notesTools } from '../support/client-tools.js';

const MAPPING = { read: 'allow', edit: 'ask', delete: 'deny' } as const;
const VSCODE_MCP =
  '{\n  "servers": {\n    "notes": { "command": "node", "args": ["server.mjs"] }\n  }\n}\n';
const CURSOR_MCP = '{\n  "mcpServers": {\n    "notes": { "command": "node" }\n  }\n}\n';
const ALLOW_ALL = '{\n  // every notes tool\n  "mcpAllowlist": [\n    "notes:*"\n  ]\n}\n';

describe('check with a committed .vscode/mcp.json', () => {
  it('reports a workspace chat.tools.global.autoApprove as ignored, and each decision', async () => {
    const dir = await clientRepository({
      '.vscode/mcp.json': VSCODE_MCP,
      '.vscode/settings.json': '{\n  "chat.tools.global.autoApprove": true\n}\n',
    });
    const { report } = await checkNotes(dir);
    const ignored = report.findings.find((f) => f.rule === 'rule-ignored');
    expect(ignored).toMatchObject({ location: { file: '.vscode/settings.json', line: 2 } });
    expect(ignored?.message).toContain('VS Code: "chat.tools.global.autoApprove": true');
    const clients = (name: string) => report.tools.find((t) => t.name === name)?.clients?.vscode;
    expect(clients('list_notes')).toMatchObject({
      decision: 'allow',
      file: '.vscode/mcp.json',
      line: 3,
    });
    expect(clients('delete_note')).toMatchObject({ decision: 'ask', file: '.vscode/mcp.json' });
    // VS Code asks for the delete tool, and no committed rule makes sure it always will.
    const unset = report.findings.find((f) => f.rule === 'rule-unset' && f.tool === 'delete_note');
    expect(unset?.message).toContain('No rule of VS Code decides delete tool');
  });

  it('has no rule findings once rules --client vscode --write has written the settings', async () => {
    const dir = await clientRepository({
      '.vscode/mcp.json': VSCODE_MCP,
      '.vscode/settings.json': vscode.writeRules(undefined, notesTools(), MAPPING),
    });
    const { code, report } = await checkNotes(dir);
    expect(ruleFindings(report)).toEqual([]);
    expect(code).toBe(0);
  });
});

describe('check with a committed .cursor/permissions.json', () => {
  it('fails on an allowlist entry that lets the delete tool run, naming Cursor, file and line', async () => {
    const dir = await clientRepository({
      '.cursor/mcp.json': CURSOR_MCP,
      '.cursor/permissions.json': ALLOW_ALL,
    });
    const { code, report } = await checkNotes(dir);
    expect(code).toBe(1);
    const found = report.findings.find((f) => f.rule === 'rule-allows-delete');
    expect(found).toMatchObject({
      tool: 'delete_note',
      location: { file: '.cursor/permissions.json', line: 4 },
    });
    expect(found?.message).toContain('in Cursor, "notes:*" in .cursor/permissions.json line 4');
    expect(report.tools.find((t) => t.name === 'delete_note')?.clients?.cursor).toMatchObject({
      decision: 'allow',
      rule: 'notes:*',
      file: '.cursor/permissions.json',
      line: 4,
    });
  });

  it('passes once the allowlist holds only what rules --client cursor writes', async () => {
    const dir = await clientRepository({
      '.cursor/mcp.json': CURSOR_MCP,
      '.cursor/permissions.json': cursor.writeRules(
        '{\n  "mcpAllowlist": ["notes:add_note"]\n}\n',
        notesTools(),
        MAPPING,
      ),
    });
    const { code, report } = await checkNotes(dir);
    expect(report.findings.filter((f) => f.rule === 'rule-allows-edit')).toEqual([]);
    expect(report.tools.find((t) => t.name === 'list_notes')?.clients?.cursor).toMatchObject({
      decision: 'allow',
    });
    expect(code).toBe(0);
  });
});
