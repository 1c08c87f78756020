// Claude Code as a row of the client registry: the Client seam over the verified model, giving
// the model's decisions, its findings about the files, and the merge `rules --write` does.
import { wordedProblems } from '../support/client-problems.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { claudeCode } from '../../src/clients/claude-code/client.js';
import { mergePermissions } from '../../src/clients/claude-code/claude-settings.js';
import type { ClientTool } from '../../src/clients/client.js';
import { CLIENTS, clientById } from '../../src/clients/registry.js';
import { CLIENT_PROJECT_DIRS, CLIENT_PROJECT_FILES } from '../../src/config/defaults.js';
import { AuditError } from '../../src/errors.js';

// read() and writeRules() take lines from jsonc-parser, which the row's load() brings in.
beforeAll(() => claudeCode.load?.());

const MAPPING = { read: 'allow', edit: 'ask', delete: 'deny' } as const;
const TOOLS: ClientTool[] = [
  { server: 'notes', tool: 'list_notes', class: 'read', declared: { readOnlyHint: true } },
  { server: 'notes', tool: 'add_note', class: 'edit', declared: { destructiveHint: false } },
  { server: 'notes', tool: 'delete_note', class: 'delete', declared: {} },
];
const settings = (value: unknown) => [
  { path: '.claude/settings.json', text: `${JSON.stringify(value, null, 2)}\n` },
];

describe('the Claude Code row', () => {
  it('is registered under its id, verified on the binary', () => {
    expect(clientById('claude-code')).toBe(claudeCode);
    expect(claudeCode.verified).toEqual({
      binary: '@anthropic-ai/claude-code',
      version: '2.1.332',
    });
    expect(claudeCode.fullName('my_notes', 'add_note')).toBe('mcp__my_notes__add_note');
  });

  it('decides as the model does, naming the rule, file and line, and asks where no rule decides', () => {
    const state = claudeCode.read(
      settings({ permissions: { allow: ['mcp__notes'], deny: ['mcp__notes__delete_note'] } }),
    );
    expect(claudeCode.configures(state)).toBe(true);
    expect(TOOLS.map((t) => claudeCode.decide(state, t))).toEqual([
      { decision: 'allow', rule: 'mcp__notes', file: '.claude/settings.json', line: 4 },
      { decision: 'allow', rule: 'mcp__notes', file: '.claude/settings.json', line: 4 },
      { decision: 'deny', rule: 'mcp__notes__delete_note', file: '.claude/settings.json', line: 7 },
    ]);
    const none = claudeCode.read([]);
    expect(claudeCode.configures(none)).toBe(false);
    expect(claudeCode.decide(none, TOOLS[2] as ClientTool)).toMatchObject({
      decision: 'ask',
      byClient: expect.stringContaining('asks each time') as string,
    });
  });

  it('reports a stale rule and a file Claude Code drops whole, on their lines', () => {
    const stale = claudeCode.read(settings({ permissions: { deny: ['mcp__notes__gone'] } }));
    expect(wordedProblems(claudeCode, stale, TOOLS)).toEqual([
      expect.objectContaining({ id: 'rule-stale', file: '.claude/settings.json', line: 4 }),
    ]);
    const dropped = claudeCode.read([{ path: '.claude/settings.json', text: '{"model": 1}' }]);
    expect(wordedProblems(claudeCode, dropped, TOOLS)).toEqual([
      expect.objectContaining({ id: 'settings-ignored', line: 1 }),
    ]);
  });

  it('writes the same rules as `rules --write`, keeps the rest, twice changes nothing', () => {
    const existing = '{\n  "model": "x",\n  "permissions": { "allow": ["Bash(ls)"] }\n}\n';
    const once = claudeCode.writeRules(existing, TOOLS, MAPPING);
    expect(once).toContain('"model": "x"');
    expect(once).toContain('"Bash(ls)"');
    expect(claudeCode.writeRules(once, TOOLS, MAPPING)).toBe(once);
    expect(claudeCode.writeRules(undefined, TOOLS, MAPPING)).toBe(
      mergePermissions(
        undefined,
        {
          allow: ['mcp__notes__list_notes'],
          ask: ['mcp__notes__add_note'],
          deny: ['mcp__notes__delete_note'],
        },
        new Set(['notes']),
      ),
    );
    const perTool = [{ ...(TOOLS[2] as ClientTool), decision: 'ask' as const }];
    expect(claudeCode.writeRules(undefined, perTool, MAPPING)).toContain(
      '"ask": [\n      "mcp__notes__delete_note"',
    );
  });

  it('refuses a file that does not parse, naming it', () => {
    expect(() => claudeCode.writeRules('{ nope', TOOLS, MAPPING, 'custom.json')).toThrow(
      AuditError,
    );
    expect(() => claudeCode.writeRules('{ nope', TOOLS, MAPPING, 'custom.json')).toThrow(
      /custom\.json/,
    );
  });
});

describe('the registry', () => {
  it("lists every row's project files where the action's entry reads them early", () => {
    expect([...CLIENT_PROJECT_FILES].sort()).toEqual(CLIENTS.flatMap((c) => c.projectFiles).sort());
    expect([...CLIENT_PROJECT_DIRS].sort()).toEqual(
      CLIENTS.flatMap((c) => c.projectDirs ?? []).sort(),
    );
  });
});
