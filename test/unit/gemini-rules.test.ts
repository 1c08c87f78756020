// rules --client gemini: the class list as a Gemini CLI policy file (read → allow, edit →
// ask_user, delete → deny), merged into an existing one with every other byte kept, idempotent,
// refusing a file that does not parse or that Gemini would skip whole.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClassDecisions } from '../../src/clients/client.js';
import { GEMINI_POLICY, gemini } from '../../src/clients/gemini/client.js';
import { decideGemini } from '../../src/clients/gemini/model.js';
import { notesByClass } from '../support/client-tools.js';

beforeAll(() => gemini.load?.());

const MAPPING: ClassDecisions = { read: 'allow', edit: 'ask', delete: 'deny' };
const write = (existing?: string, tools = notesByClass()) =>
  gemini.writeRules(existing, tools, MAPPING);

const RULES = `[[rule]]
mcpName = "notes"
toolName = "add_note"
decision = "ask_user"
priority = 950

[[rule]]
mcpName = "notes"
toolName = "delete_note"
decision = "deny"
priority = 950

[[rule]]
mcpName = "notes"
toolName = "list_notes"
decision = "allow"
priority = 950
`;

describe('writeRules', () => {
  it('writes a new file: a header saying how Gemini loads it, one rule per tool', () => {
    const text = write();
    expect(text).toBe(
      [
        '# The MCP tool class list as Gemini CLI policy rules (mcp-annotation-auditor rules --client gemini):',
        '# read tools run, edit tools ask, delete tools are refused.',
        '# Gemini CLI does not load policies from a workspace: run gemini --policy .gemini/mcp-tool-classes.policy.toml,',
        '# or copy this file to ~/.gemini/policies/.',
        '',
        RULES,
      ].join('\n'),
    );
    expect(write(text)).toBe(text);
    // What the model then decides, with the file passed as --policy.
    const state = gemini.read([{ path: GEMINI_POLICY, text }]);
    expect(notesByClass().map((t) => decideGemini(state, t).decision)).toEqual([
      'allow',
      'ask',
      'deny',
    ]);
  });

  it('keeps every other byte: comments, other rules, other servers', () => {
    const existing =
      '# team rules\n[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "git"\ndecision = "ask_user"\npriority = 100\n';
    const text = write(existing);
    expect(text).toBe(`${existing}\n${RULES}`);
    expect(write(text)).toBe(text);
  });

  it('sets the decision of its own rule in place and drops its repeats and tools no longer recorded', () => {
    const existing = `# keep
[[rule]]
mcpName = "notes"
toolName = "delete_note"
decision = "allow" # was wrong
priority = 10

[[rule]]
mcpName = "notes"
toolName = "old_tool"
decision = "allow"
priority = 950

[[rule]]
mcpName = "notes"
toolName = "delete_note"
decision = "allow"
priority = 950
# tail
`;
    const text = write(existing);
    expect(text).toBe(`# keep
[[rule]]
mcpName = "notes"
toolName = "delete_note"
decision = "deny" # was wrong
priority = 950
# tail

[[rule]]
mcpName = "notes"
toolName = "add_note"
decision = "ask_user"
priority = 950

[[rule]]
mcpName = "notes"
toolName = "list_notes"
decision = "allow"
priority = 950
`);
    expect(write(text)).toBe(text);
  });

  it("a tool's own decision (clientRules' per-tool mapping) wins over its class's", () => {
    const tools = notesByClass().map((t) =>
      t.tool === 'list_notes' ? { ...t, decision: 'deny' as const } : t,
    );
    expect(write(undefined, tools)).toContain(
      '[[rule]]\nmcpName = "notes"\ntoolName = "list_notes"\ndecision = "deny"\npriority = 950\n',
    );
  });

  it('a server key Gemini rewrites is named by the full tool name', () => {
    const text = write(undefined, notesByClass('my notes'));
    expect(text).toContain(
      '[[rule]]\ntoolName = "mcp_my_notes_delete_note"\ndecision = "deny"\npriority = 950\n',
    );
    const state = gemini.read([{ path: GEMINI_POLICY, text }]);
    expect(notesByClass('my notes').map((t) => decideGemini(state, t).decision)).toEqual([
      'allow',
      'ask',
      'deny',
    ]);
  });

  it('refuses a file that is not TOML, or that Gemini would skip whole', () => {
    expect(() => write('[[rule]\n')).toThrow(
      /The Gemini policy file \.gemini\/mcp-tool-classes\.policy\.toml is not valid TOML at line 2, column 1: Unterminated table-key/,
    );
    expect(() => write('[[rule]]\nmcpName = "x"\ndecision = "deny"\npriority = 1\n')).toThrow(
      'Gemini CLI skips the whole policy file .gemini/mcp-tool-classes.policy.toml: rule 1: it has no toolName (use "*" for every tool) (line 1).',
    );
  });
});
