// What Gemini CLI 0.61.0 decides for the example server's tools from a workspace
// .gemini/settings.json and a policy file passed with --policy, each fact observed on the binary
// (test/oracle/gemini.test.ts runs the matrix): trust, the allow and exclude lists, confirmation,
// rule priorities, plan mode, headless, and the rules it skips or that name nothing.
import { wordedProblems } from '../support/client-problems.js';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClientFile } from '../../src/clients/client.js';
import { GEMINI_POLICY, GEMINI_SETTINGS, gemini } from '../../src/clients/gemini/client.js';
import { decideGemini } from '../../src/clients/gemini/model.js';
import { AuditError } from '../../src/errors.js';
import { notesByClass } from '../support/client-tools.js';

beforeAll(() => gemini.load?.());

const settings = (value: unknown): ClientFile => ({
  path: GEMINI_SETTINGS,
  text: typeof value === 'string' ? value : JSON.stringify(value, null, 2),
});
const policy = (text: string): ClientFile => ({ path: GEMINI_POLICY, text });
const rule = (fields: string) => `[[rule]]\n${fields}\n`;
const server = { command: 'node', args: ['server.mjs'] };

/** list_notes, add_note, delete_note's decisions (interactive unless headless). */
function decisions(files: ClientFile[], headless = false, key = 'notes'): string[] {
  const state = gemini.read(files);
  return notesByClass(key).map((t) => decideGemini(state, t, !headless).decision);
}

describe('fullName: Gemini names an MCP tool mcp_<server>_<tool>', () => {
  it.each([
    ['notes', 'list_notes', 'mcp_notes_list_notes'],
    ['my.notes', 'list_notes', 'mcp_my.notes_list_notes'],
    ['my notes', 'add_note', 'mcp_my_notes_add_note'],
    ['mcp', 'list', 'mcp_list'],
    [
      'n'.repeat(40),
      'tool_with_a_long_name',
      `mcp_${'n'.repeat(26)}...${'n'.repeat(8)}_tool_with_a_long_name`,
    ],
  ])('%s / %s → %s', (s, t, name) => {
    expect(gemini.fullName(s, t)).toBe(name);
  });
});

describe('decide: the interactive decision (the terminal UI, an editor over ACP)', () => {
  it('with no file every tool asks, Gemini on its own', () => {
    const state = gemini.read([]);
    expect(gemini.decide(state, notesByClass()[2]!)).toEqual({
      decision: 'ask',
      byClient: 'no rule decides it: Gemini asks each time',
    });
    expect(gemini.configures(state)).toBe(false);
  });

  it('trust: true runs every tool of the server, naming the line', () => {
    const state = gemini.read([
      settings(
        '{\n  "mcpServers": {\n    "notes": {\n      "command": "node",\n      "trust": true\n    }\n  }\n}\n',
      ),
    ]);
    expect(gemini.decide(state, notesByClass()[2]!)).toEqual({
      decision: 'allow',
      rule: 'mcpServers.notes.trust: true',
      file: GEMINI_SETTINGS,
      line: 5,
    });
  });

  it("a server entry without a command replaces the user's and starts nothing", () => {
    expect(decisions([settings({ mcpServers: { notes: { trust: true } } })])).toEqual([
      'hidden',
      'hidden',
      'hidden',
    ]);
  });

  it('mcp.allowed allows the servers it lists and keeps every other server from starting', () => {
    expect(decisions([settings({ mcp: { allowed: ['notes'] } })])).toEqual([
      'allow',
      'allow',
      'allow',
    ]);
    expect(decisions([settings({ mcp: { allowed: ['other'] } })])).toEqual([
      'hidden',
      'hidden',
      'hidden',
    ]);
    expect(decisions([settings({ mcp: { excluded: ['notes'] } })])).toEqual([
      'hidden',
      'hidden',
      'hidden',
    ]);
  });

  it('tools.allowed takes full names and mcp_<server>_*, not a bare tool name', () => {
    const files = [settings({ tools: { allowed: ['mcp_notes_list_notes', 'add_note'] } })];
    expect(decisions(files)).toEqual(['allow', 'ask', 'ask']);
    expect(wordedProblems(gemini, gemini.read(files), notesByClass())).toEqual([
      expect.objectContaining({
        id: 'rule-ignored',
        message:
          'Gemini CLI: tools.allowed: "add_note" in .gemini/settings.json line 5 is ignored: Gemini CLI names the tool mcp_notes_add_note, so it does not match it.',
      }),
    ]);
    expect(decisions([settings({ tools: { allowed: ['mcp_notes_*'] } })])).toEqual([
      'allow',
      'allow',
      'allow',
    ]);
  });

  it('tools.exclude hides a tool by its full name, its own name, or every MCP tool by class', () => {
    expect(
      decisions([settings({ tools: { exclude: ['mcp_notes_delete_note', 'add_note'] } })]),
    ).toEqual(['ask', 'hidden', 'hidden']);
    expect(decisions([settings({ tools: { exclude: ['DiscoveredMCPTool'] } })])).toEqual([
      'hidden',
      'hidden',
      'hidden',
    ]);
  });

  it('includeTools and excludeTools of the server entry drop tools', () => {
    const entry = {
      ...server,
      includeTools: ['list_notes', 'add_note'],
      excludeTools: ['add_note'],
    };
    expect(decisions([settings({ mcpServers: { notes: entry } })])).toEqual([
      'ask',
      'hidden',
      'hidden',
    ]);
  });

  it('confirmationRequired beats tools.allowed, yet trust: true runs the tool without asking', () => {
    const confirm = { confirmationRequired: ['mcp_notes_delete_note'] };
    expect(decisions([settings({ tools: { allowed: ['mcp_notes_*'], ...confirm } })])).toEqual([
      'allow',
      'allow',
      'ask',
    ]);
    const trusted = { mcpServers: { notes: { ...server, trust: true } }, tools: confirm };
    expect(decisions([settings(trusted)])[2]).toBe('allow');
    // Headless refuses it: the policy asks, and -p cannot.
    expect(decisions([settings(trusted)], true)[2]).toBe('ask');
  });

  it('a policy deny below priority 200 loses to trust: true (4.2); the rules file uses 950', () => {
    const trusted = settings({ mcpServers: { notes: { ...server, trust: true } } });
    const deny = (p: number) =>
      policy(
        rule(`mcpName = "notes"\ntoolName = "delete_note"\ndecision = "deny"\npriority = ${p}`),
      );
    expect(decisions([trusted, deny(100)])[2]).toBe('allow');
    const state = gemini.read([trusted, deny(950)]);
    expect(gemini.decide(state, notesByClass()[2]!)).toEqual({
      decision: 'deny',
      rule: '[[rule]] mcpName = "notes" toolName = "delete_note" decision = "deny" priority = 950',
      file: GEMINI_POLICY,
      line: 1,
    });
  });

  it('policy rules by toolAnnotations, and globs Gemini compares whole', () => {
    const files = [
      policy(
        rule(
          'mcpName = "*"\ntoolName = "*"\ntoolAnnotations = { readOnlyHint = true }\ndecision = "allow"\npriority = 1',
        ) + rule('toolName = "mcp_*_delete_note"\ndecision = "deny"\npriority = 1'),
      ),
    ];
    expect(decisions(files)).toEqual(['allow', 'ask', 'ask']);
    expect(wordedProblems(gemini, gemini.read(files), notesByClass())).toEqual([
      expect.objectContaining({ id: 'rule-ignored', file: GEMINI_POLICY, line: 7 }),
    ]);
  });

  it('a rule without toolName drops the whole policy file', () => {
    const files = [
      policy(
        rule('mcpName = "notes"\ntoolName = "list_notes"\ndecision = "allow"\npriority = 1') +
          rule('mcpName = "notes"\ndecision = "deny"\npriority = 1'),
      ),
    ];
    expect(decisions(files)).toEqual(['ask', 'ask', 'ask']);
    expect(wordedProblems(gemini, gemini.read(files), notesByClass())).toEqual([
      {
        id: 'rule-ignored',
        message: `Gemini CLI: ${GEMINI_POLICY} line 6 is ignored: Gemini CLI skips the whole policy file for rule 2: it has no toolName (use "*" for every tool).`,
        fix: 'Fix that rule: one rule Gemini refuses drops every rule of the file.',
        file: GEMINI_POLICY,
        line: 6,
      },
    ]);
  });

  it('plan mode from the settings: read-only tools ask, the rest are refused unless a rule allows', () => {
    const plan = {
      general: { defaultApprovalMode: 'plan' },
      tools: { allowed: ['mcp_notes_add_note'] },
    };
    expect(decisions([settings(plan)])).toEqual(['ask', 'allow', 'deny']);
  });

  it('yolo in the settings is ignored, and said so', () => {
    const files = [settings({ general: { defaultApprovalMode: 'yolo' } })];
    expect(decisions(files)).toEqual(['ask', 'ask', 'ask']);
    expect(wordedProblems(gemini, gemini.read(files), notesByClass())[0]).toMatchObject({
      id: 'rule-ignored',
      line: 3,
    });
  });

  it('workspace .gemini/policies/ files count for nothing', () => {
    const files = [
      {
        path: '.gemini/policies/team.toml',
        text: rule('toolName = "*"\ndecision = "allow"\npriority = 1'),
      },
    ];
    expect(decisions(files)).toEqual(['ask', 'ask', 'ask']);
    expect(wordedProblems(gemini, gemini.read(files), notesByClass())).toEqual([
      expect.objectContaining({ id: 'rule-ignored', file: '.gemini/policies/team.toml', line: 1 }),
    ]);
  });

  it('a rule naming a tool the class list does not record is stale', () => {
    const files = [
      settings({ tools: { allowed: ['mcp_notes_list_notes', 'mcp_notes_old_tool', 'read_file'] } }),
    ];
    expect(wordedProblems(gemini, gemini.read(files), notesByClass())).toEqual([
      {
        id: 'rule-stale',
        message:
          'Gemini CLI: tools.allowed: "mcp_notes_old_tool" in .gemini/settings.json line 5 names no tool the class list records for the notes server.',
        fix: 'Remove it, or rename it after the tool (rules --client gemini --write rewrites its own rules).',
        file: GEMINI_SETTINGS,
        line: 5,
      },
    ]);
  });
});

describe('headless (gemini -p)', () => {
  it('offers no tool that no rule allows; a tool that asks is refused', () => {
    expect(decisions([], true)).toEqual(['hidden', 'hidden', 'hidden']);
    const files = [
      policy(rule('mcpName = "notes"\ntoolName = "add_note"\ndecision = "ask_user"\npriority = 1')),
    ];
    expect(decisions(files, true)).toEqual(['hidden', 'ask', 'hidden']);
  });
});

describe('read: files Gemini refuses', () => {
  it('comments are read; a trailing comma stops Gemini (exit 52) and is an AuditError naming the line', () => {
    expect(
      decisions([
        settings('// team settings\n{ /* servers */ "mcp": { "allowed": ["notes"] } }\n'),
      ]),
    ).toEqual(['allow', 'allow', 'allow']);
    expect(() => gemini.read([settings('{\n  "mcp": { "allowed": ["notes"], }\n}\n')])).toThrow(
      /The Gemini settings file \.gemini\/settings\.json is not valid JSON at line 2, column 34/,
    );
  });

  it('a list of the wrong type is an AuditError (Gemini crashes on mcp.allowed: 5)', () => {
    expect(() => gemini.read([settings({ mcp: { allowed: 5 } })])).toThrow(AuditError);
    expect(() => gemini.read([settings({ general: { defaultApprovalMode: 'fast' } })])).toThrow(
      /general\.defaultApprovalMode that is not one of default, auto_edit, plan, yolo \(line 3\)/,
    );
  });
});
