// `rules --client codex --write`: the class list's rules as per-tool approval_mode settings,
// merged into .codex/config.toml keeping every other byte, idempotent, refusing what does not
// parse (the oracle runs the written file on the real Codex).
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClassDecisions } from '../../src/clients/client.js';
import { codex } from '../../src/clients/codex/index.js';
import { AuditError } from '../../src/errors.js';
import { notesTools } from '../support/client-tools.js';

beforeAll(() => codex.load?.());

const MAPPING: ClassDecisions = { read: 'allow', edit: 'ask', delete: 'deny' };
const NOTES = notesTools();
const write = (existing: string | undefined, tools = NOTES) =>
  codex.writeRules(existing, tools, MAPPING);
/** The decisions Codex takes from the written file. */
const decided = (text: string) =>
  NOTES.map((t) => codex.decide(codex.read([{ path: codex.rulesFile, text }]), t).decision);

const FRESH = `[mcp_servers.notes.tools.add_note]
approval_mode = "prompt"

[mcp_servers.notes.tools.delete_note]
approval_mode = "prompt"

[mcp_servers.notes.tools.list_notes]
approval_mode = "approve"
`;

describe('writeRules', () => {
  it('with no file: one table a tool, read approve, edit and delete prompt (never auto)', () => {
    expect(codex.rulesFile).toBe('.codex/config.toml');
    expect(write(undefined)).toBe(FRESH);
    // add_note, delete_note, list_notes: auto would have run add_note unasked.
    expect(decided(FRESH)).toEqual(['ask', 'ask', 'allow']);
  });

  it('keeps every other byte: comments, layout, other servers and keys', () => {
    const existing = `# Codex settings for this repository
model = "o4"   # kept

[mcp_servers.notes]
command = "node"
args = ["examples/notes/server.mjs"]   # the example
default_tools_approval_mode = "approve"

[mcp_servers.other]
url = 'https://example.test/mcp'
`;
    const out = write(existing);
    expect(out).toBe(`${existing}\n${FRESH}`);
    expect(decided(out)).toEqual(['ask', 'ask', 'allow']);
  });

  it('replaces a value in place and adds a key under an existing table', () => {
    const existing = `[mcp_servers.notes]
command = "node"

[mcp_servers.notes.tools.delete_note] # reviewed
approval_mode = 'approve' # was wrong

[mcp_servers.notes.tools.add_note]
# nothing yet
`;
    expect(write(existing)).toBe(`[mcp_servers.notes]
command = "node"

[mcp_servers.notes.tools.delete_note] # reviewed
approval_mode = "prompt" # was wrong

[mcp_servers.notes.tools.add_note]
approval_mode = "prompt"
# nothing yet

[mcp_servers.notes.tools.list_notes]
approval_mode = "approve"
`);
  });

  it('writes beside dotted keys, where a [table] header could not go', () => {
    const existing =
      '[mcp_servers.notes]\ncommand = "node"\ntools.add_note.approval_mode = "approve"\ntools.delete_note.note = "x"\n';
    const out = write(existing);
    expect(out).toBe(
      '[mcp_servers.notes]\ncommand = "node"\ntools.add_note.approval_mode = "prompt"\ntools.delete_note.note = "x"\ntools.delete_note.approval_mode = "prompt"\n\n[mcp_servers.notes.tools.list_notes]\napproval_mode = "approve"\n',
    );
    expect(decided(out)).toEqual(['ask', 'ask', 'allow']);
  });

  it('quotes a key that is not bare, keeps CRLF line ends, adds a missing final line break', () => {
    const existing = '[mcp_servers."my.notes"]\r\ncommand = "node"';
    expect(write(existing, notesTools('my.notes').slice(0, 1))).toBe(
      '[mcp_servers."my.notes"]\r\ncommand = "node"\r\n\r\n[mcp_servers."my.notes".tools.add_note]\r\napproval_mode = "prompt"\r\n',
    );
  });

  it('a tool’s own mapped decision wins over its class’s', () => {
    const tools = notesTools().map((t) =>
      t.tool === 'delete_note' ? { ...t, decision: 'allow' as const } : t,
    );
    expect(write(undefined, tools)).toContain(
      '[mcp_servers.notes.tools.delete_note]\napproval_mode = "approve"\n',
    );
  });

  it('names the path it was given when the file does not parse', () => {
    expect(() => codex.writeRules('x = ', NOTES, MAPPING, 'ci/codex.toml')).toThrow(
      /^ci\/codex\.toml is not valid TOML at line 1/,
    );
  });

  it('is idempotent: writing twice changes nothing', () => {
    for (const existing of [undefined, '# x\n[mcp_servers.notes]\ncommand = "n"\n']) {
      const once = write(existing);
      expect(write(once)).toBe(once);
    }
  });

  it('refuses a file that does not parse, naming the line', () => {
    expect(() => write('[mcp_servers.notes]\ncommand = "node\n')).toThrow(AuditError);
    expect(() => write('[mcp_servers.notes]\ncommand = "node\n')).toThrow(
      /not valid TOML at line 2/,
    );
  });

  it('refuses to write into an inline table (TOML closes it), saying what to do', () => {
    const existing = '[mcp_servers.notes]\ntools = { add_note = { approval_mode = "approve" } }\n';
    // The tool written inside is replaced in place; a tool not in it cannot be added.
    expect(() => write(existing)).toThrow(
      /Cannot add mcp_servers\.notes\.tools\.delete_note\.approval_mode to \.codex\/config\.toml: mcp_servers\.notes\.tools \(line 2\) is an inline table/,
    );
    expect(write(existing, NOTES.slice(0, 1))).toBe(
      '[mcp_servers.notes]\ntools = { add_note = { approval_mode = "prompt" } }\n',
    );
  });
});
