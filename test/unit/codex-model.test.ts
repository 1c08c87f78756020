// What Codex CLI does with a committed .codex/config.toml, each fact observed on the binary
// (0.171.0; the oracle in test/oracle/codex.test.ts runs them): approval modes, `auto` from the
// annotations, hidden tools, what stops Codex from starting, and what it ignores.
import { wordedProblems } from '../support/client-problems.js';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClientTool } from '../../src/clients/client.js';
import { codex } from '../../src/clients/codex/index.js';
import { clientById } from '../../src/clients/registry.js';
import { AuditError } from '../../src/errors.js';
import { notesTools, toolWith } from '../support/client-tools.js';

beforeAll(() => codex.load?.());

const FILE = '.codex/config.toml';
const read = (text: string) => codex.read([{ path: FILE, text }]);
const NOTES = notesTools();
const SERVER = '[mcp_servers.notes]\ncommand = "node"\nargs = ["server.mjs"]\n';

/** Each notes tool's decision under the file. */
function decisions(text: string, tools: ClientTool[] = NOTES): Record<string, string> {
  const state = read(text);
  return Object.fromEntries(tools.map((t) => [t.tool, codex.decide(state, t).decision]));
}

describe('the codex client', () => {
  it('is registered, reads .codex/config.toml and names tools mcp__<key>__<tool> as Codex does', () => {
    expect(clientById('codex')).toBe(codex);
    expect(codex.projectFiles).toEqual(['.codex/config.toml']);
    expect(codex.fullName('notes', 'add_note')).toBe('mcp__notes__add_note');
    expect(codex.fullName('my.notes', 'add_note')).toBe('mcp__my_notes__add_note');
    expect(codex.fullName('My-Notes', 'a.b')).toBe('mcp__My_Notes__a_b');
    expect(codex.notes?.[0]).toContain('only in a project the user trusts');
  });

  it('configures Codex only with a server in the file', () => {
    expect(codex.configures(read('model = "x"\n'))).toBe(false);
    expect(codex.configures(read(SERVER))).toBe(true);
  });
});

describe('auto, from the annotations', () => {
  it('with no approval setting: list_notes and add_note run, delete_note asks', () => {
    const state = read(SERVER);
    const [add, del, list] = ['add_note', 'delete_note', 'list_notes'].map((n) =>
      codex.decide(state, NOTES.find((t) => t.tool === n) as ClientTool),
    );
    expect(list).toEqual({
      decision: 'allow',
      byClient: 'auto (Codex’s default: no approval_mode set): readOnlyHint true',
    });
    expect(add).toEqual({
      decision: 'allow',
      byClient:
        'auto (Codex’s default: no approval_mode set): destructiveHint and openWorldHint declared false',
    });
    expect(del?.decision).toBe('ask');
    expect(del?.byClient).toContain('destructiveHint true');
  });

  it('a server the file does not name is auto too', () => {
    expect(decisions('')).toEqual({ add_note: 'allow', delete_note: 'ask', list_notes: 'allow' });
  });

  // Observed on the binary for all 27 combinations (test/oracle/codex.test.ts, hints matrix).
  it.each([
    [{ readOnlyHint: true, destructiveHint: true, openWorldHint: true }, 'allow'],
    [{ readOnlyHint: false, destructiveHint: false, openWorldHint: false }, 'allow'],
    [{ destructiveHint: false, openWorldHint: false }, 'allow'],
    [{ destructiveHint: false }, 'ask'],
    [{ destructiveHint: false, openWorldHint: true }, 'ask'],
    [{ openWorldHint: false }, 'ask'],
    [{ readOnlyHint: false, destructiveHint: true, openWorldHint: false }, 'ask'],
    [{}, 'ask'],
  ])('declared %o: %s', (declared, decision) => {
    expect(codex.decide(read(SERVER), toolWith(declared)).decision).toBe(decision);
  });

  it('names the setting when auto is written, and says what was missing', () => {
    const verdict = codex.decide(
      read(`${SERVER}default_tools_approval_mode = "auto"\n`),
      toolWith({ destructiveHint: false }),
    );
    expect(verdict).toEqual({
      decision: 'ask',
      rule: '[mcp_servers.notes] default_tools_approval_mode = "auto"',
      file: FILE,
      line: 4,
      byClient: 'auto: readOnlyHint not true and openWorldHint not declared',
    });
  });
});

describe('approval modes', () => {
  it.each([
    ['prompt', { add_note: 'ask', delete_note: 'ask', list_notes: 'ask' }],
    ['writes', { add_note: 'ask', delete_note: 'ask', list_notes: 'allow' }],
    ['approve', { add_note: 'allow', delete_note: 'allow', list_notes: 'allow' }],
  ])('default_tools_approval_mode = "%s"', (mode, expected) => {
    expect(decisions(`${SERVER}default_tools_approval_mode = "${mode}"\n`)).toEqual(expected);
  });

  it('a tool’s approval_mode wins over the server default, named with its line', () => {
    const text = `${SERVER}default_tools_approval_mode = "prompt"\n\n[mcp_servers.notes.tools.delete_note]\napproval_mode = 'approve'\n`;
    expect(decisions(text)).toEqual({ add_note: 'ask', delete_note: 'allow', list_notes: 'ask' });
    expect(
      codex.decide(read(text), NOTES.find((t) => t.tool === 'delete_note') as ClientTool),
    ).toEqual({
      decision: 'allow',
      rule: "[mcp_servers.notes.tools.delete_note] approval_mode = 'approve'",
      file: FILE,
      line: 7,
    });
  });

  it('reads dotted keys and inline tables as Codex does', () => {
    const text = `${SERVER}tools.delete_note.approval_mode = "approve"\ntools.add_note = { approval_mode = "prompt" }\n`;
    expect(decisions(text)).toEqual({ add_note: 'ask', delete_note: 'allow', list_notes: 'allow' });
    const verdict = codex.decide(read(text), NOTES[1] as ClientTool);
    expect(verdict.line).toBe(4);
  });

  it('a server key with a dot, quoted: the class list’s my_notes finds it', () => {
    const text =
      '[mcp_servers."my.notes"]\ncommand = "node"\ndefault_tools_approval_mode = "approve"\n';
    expect(decisions(text, notesTools('my_notes'))).toEqual({
      add_note: 'allow',
      delete_note: 'allow',
      list_notes: 'allow',
    });
  });
});

describe('hidden tools', () => {
  it('enabled_tools hides what it does not list; disabled_tools wins over it', () => {
    const text = `${SERVER}enabled_tools = ["list_notes", "delete_note"]\ndisabled_tools = [\n  "delete_note",\n]\n`;
    expect(decisions(text)).toEqual({
      add_note: 'hidden',
      delete_note: 'hidden',
      list_notes: 'allow',
    });
    const state = read(text);
    expect(codex.decide(state, NOTES[1] as ClientTool)).toMatchObject({ line: 6 });
    expect(codex.decide(state, NOTES[0] as ClientTool)).toMatchObject({ line: 4 });
  });

  it('enabled = false hides every tool, whatever the modes', () => {
    expect(
      decisions(`${SERVER}enabled = false\ndefault_tools_approval_mode = "approve"\n`),
    ).toEqual({
      add_note: 'hidden',
      delete_note: 'hidden',
      list_notes: 'hidden',
    });
  });

  it('an empty enabled_tools hides every tool', () => {
    expect(Object.values(decisions(`${SERVER}enabled_tools = []\n`))).toEqual([
      'hidden',
      'hidden',
      'hidden',
    ]);
  });
});

describe('files Codex refuses to start with', () => {
  it.each([
    [
      'not TOML',
      `${SERVER}[mcp_servers.notes\n`,
      /not valid TOML at line 5, column 1: Unterminated table-key/,
    ],
    ['a key twice', `${SERVER}enabled = true\nenabled = false\n`, /not valid TOML at line 5/],
    [
      'a mode of the wrong case',
      `${SERVER}default_tools_approval_mode = "Approve"\n`,
      /mcp_servers\.notes\.default_tools_approval_mode \(line 4\) is not one of "auto", "prompt", "writes", "approve"/,
    ],
    [
      'a mode Codex does not have',
      `${SERVER}[mcp_servers.notes.tools.delete_note]\napproval_mode = "never"\n`,
      /tools\.delete_note\.approval_mode \(line 5\) is not one of/,
    ],
    [
      'enabled_tools a string',
      `${SERVER}enabled_tools = "list_notes"\n`,
      /is not a list of tool names/,
    ],
    [
      'a server that is not a table',
      'mcp_servers.notes = 5\n',
      /mcp_servers\.notes \(line 1\) is not a table/,
    ],
  ])('%s: AuditError with the line', (_name, text, message) => {
    expect(() => read(text)).toThrow(AuditError);
    expect(() => read(text)).toThrow(message);
  });

  it('TOML 1.1, as Codex reads it: an inline table over lines, \\e', () => {
    expect(() => read(`${SERVER}env = { A = "\\e",\n  B = "x", }\n`)).not.toThrow();
  });
});

describe('problems', () => {
  it('keys Codex ignores: rule-ignored with the line and what was meant', () => {
    const state = read(
      `${SERVER}approval_mode = "approve"\n[mcp_servers.notes.tools.delete_note]\nenabled = false\n`,
    );
    expect(wordedProblems(codex, state, NOTES)).toEqual([
      {
        id: 'rule-ignored',
        message: `Codex CLI: mcp_servers.notes.approval_mode in ${FILE} line 4 is ignored: Codex has no such setting for an MCP server.`,
        fix: 'Probably meant default_tools_approval_mode (or approval_mode under [mcp_servers.<key>.tools.<tool>]): write that instead, or remove it.',
        file: FILE,
        line: 4,
      },
      {
        id: 'rule-ignored',
        message: `Codex CLI: mcp_servers.notes.tools.delete_note.enabled in ${FILE} line 6 is ignored: Codex has no such setting for an MCP tool (it reads approval_mode there).`,
        fix: 'Probably meant disabled_tools = ["<tool>"] on the server: write that instead, or remove it.',
        file: FILE,
        line: 6,
      },
    ]);
  });

  it('settings naming a tool or server the class list does not record: rule-stale', () => {
    const state = read(
      `${SERVER}disabled_tools = ["drop_note"]\n[mcp_servers.notes.tools.purge]\napproval_mode = "approve"\n[mcp_servers.other]\ncommand = "x"\ndefault_tools_approval_mode = "approve"\n`,
    );
    expect(wordedProblems(codex, state, NOTES).map((p) => [p.id, p.line, p.message])).toEqual([
      [
        'rule-stale',
        4,
        `Codex CLI: [mcp_servers.notes] disabled_tools = ["drop_note"] in ${FILE} line 4 names tool "drop_note", which the class list does not record for server "notes".`,
      ],
      [
        'rule-stale',
        6,
        `Codex CLI: [mcp_servers.notes.tools.purge] approval_mode = "approve" in ${FILE} line 6 names tool "purge", which the class list does not record for server "notes".`,
      ],
      [
        'rule-stale',
        9,
        `Codex CLI: [mcp_servers.other] default_tools_approval_mode = "approve" in ${FILE} line 9 names server "other", which the class list does not record.`,
      ],
    ]);
  });

  it('an approval_mode for a tool Codex hides: rule-shadowed, naming what hides it', () => {
    const state = read(
      `${SERVER}disabled_tools = ["delete_note"]\n[mcp_servers.notes.tools.delete_note]\napproval_mode = "approve"\n`,
    );
    expect(wordedProblems(codex, state, NOTES)).toEqual([
      {
        id: 'rule-shadowed',
        message: `Codex CLI: [mcp_servers.notes.tools.delete_note] approval_mode = "approve" in ${FILE} line 6 decides nothing: Codex hides delete_note ([mcp_servers.notes] disabled_tools = ["delete_note"] in ${FILE} line 4), so it is never offered.`,
        fix: 'Remove one of the two, so the file says what Codex does.',
        file: FILE,
        line: 6,
      },
    ]);
  });

  it('a server key Codex refuses: its tools hidden, rule-ignored', () => {
    const state = read('[mcp_servers."my notes"]\ncommand = "node"\n');
    expect(codex.decide(state, notesTools('my notes')[0] as ClientTool).decision).toBe('hidden');
    expect(wordedProblems(codex, state, notesTools('my notes'))[0]?.message).toContain(
      'Codex CLI: server "my notes" in .codex/config.toml line 1 is ignored',
    );
  });

  it('known server keys raise nothing', () => {
    const state = read(
      `${SERVER}env = { A = "1" }\nstartup_timeout_sec = 20\ntool_timeout_sec = 60\nrequired = true\nenabled = true\n`,
    );
    expect(wordedProblems(codex, state, NOTES)).toEqual([]);
  });
});
