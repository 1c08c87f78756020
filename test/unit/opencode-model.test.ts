// What opencode does with a committed opencode.json, each fact observed on the binary (1.18.33;
// the oracle in test/oracle/opencode.test.ts runs them): the default allow, the last matching key
// winning, globs, names, JSONC, the files' merge order, what stops opencode from starting, and the
// findings about keys that decide nothing.
import { wordedProblems } from '../support/client-problems.js';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClientTool } from '../../src/clients/client.js';
import { opencode } from '../../src/clients/opencode/index.js';
import { clientById } from '../../src/clients/registry.js';
import { AuditError } from '../../src/errors.js';
import { notesTools } from '../support/client-tools.js';

// Positions come from jsonc-parser, which the row's load() brings in.
beforeAll(() => opencode.load?.());

const FILE = 'opencode.json';
const read = (text: string, path = FILE) => opencode.read([{ path, text }]);
const NOTES = notesTools();
const json = (permission: unknown) => JSON.stringify({ permission }, null, 2);

/** Each notes tool's decision under the file. */
function decisions(text: string, tools: ClientTool[] = NOTES): Record<string, string> {
  const state = read(text);
  return Object.fromEntries(tools.map((t) => [t.tool, opencode.decide(state, t).decision]));
}

describe('the opencode client', () => {
  it('is registered, reads opencode.json(c) at the root and under .opencode/, names tools <server>_<tool>', () => {
    expect(clientById('opencode')).toBe(opencode);
    expect(opencode.projectFiles).toEqual([
      'opencode.json',
      'opencode.jsonc',
      '.opencode/opencode.json',
      '.opencode/opencode.jsonc',
    ]);
    expect(opencode.fullName('notes', 'add_note')).toBe('notes_add_note');
    expect(opencode.fullName('my.notes', 'add_note')).toBe('my_notes_add_note');
    expect(opencode.fullName('My-No.tes', 'a.b')).toBe('My-No_tes_a_b');
  });

  it('configures opencode with a server or a permission key in the file', () => {
    expect(opencode.configures(read('{"model": "x/y"}'))).toBe(false);
    expect(opencode.configures(read('{"mcp": {"notes": {"type": "local"}}}'))).toBe(true);
    expect(opencode.configures(read(json({ '*': 'ask' })))).toBe(true);
  });
});

describe('decide', () => {
  it('with no permission key every tool runs unasked: opencode’s default', () => {
    const state = read(
      '{\n  "mcp": {\n    "notes": {"type": "local", "command": ["node"]}\n  }\n}',
    );
    expect(opencode.decide(state, NOTES[1] as ClientTool)).toEqual({
      decision: 'allow',
      file: FILE,
      line: 3,
      byClient: 'opencode’s default: no permission rule, runs unasked',
    });
    expect(opencode.decide(read('{}'), NOTES[1] as ClientTool)).toEqual({
      decision: 'allow',
      byClient: 'opencode’s default: no permission rule, runs unasked',
    });
  });

  it('the last matching key wins, with its file and line', () => {
    const text = json({ 'notes_*': 'deny', 'notes_list_*': 'allow', notes_add_note: 'ask' });
    expect(decisions(text)).toEqual({ list_notes: 'allow', add_note: 'ask', delete_note: 'deny' });
    expect(
      opencode.decide(read(text), NOTES.find((t) => t.tool === 'delete_note') as ClientTool),
    ).toEqual({
      decision: 'deny',
      rule: '"notes_*": "deny"',
      file: FILE,
      line: 3,
    });
    expect(decisions(json({ 'notes_list_*': 'allow', 'notes_*': 'deny' }))).toEqual({
      list_notes: 'deny',
      add_note: 'deny',
      delete_note: 'deny',
    });
  });

  it('? is one character, case counts, a key matches the whole name', () => {
    const text = json({ 'notes_?dd_note': 'ask', NOTES_DELETE_NOTE: 'deny', notes_list: 'deny' });
    expect(decisions(text)).toEqual({ list_notes: 'allow', add_note: 'ask', delete_note: 'allow' });
  });

  it('a string permission is every tool’s; an object value applies through its "*" pattern', () => {
    expect(decisions(json('ask'))).toEqual({
      list_notes: 'ask',
      add_note: 'ask',
      delete_note: 'ask',
    });
    const text = json({ notes_delete_note: { '*': 'deny' }, notes_add_note: { 'x *': 'deny' } });
    expect(decisions(text)).toEqual({
      list_notes: 'allow',
      add_note: 'allow',
      delete_note: 'deny',
    });
  });

  it('the older tools map is weighed before every permission key', () => {
    const text = JSON.stringify({
      tools: { notes_delete_note: false, notes_add_note: false },
      permission: { notes_add_note: 'ask' },
    });
    expect(decisions(text)).toEqual({ list_notes: 'allow', add_note: 'ask', delete_note: 'deny' });
    expect(
      decisions(
        JSON.stringify({ permission: { 'notes_*': 'allow' }, tools: { notes_delete_note: false } }),
      ),
    ).toEqual({
      list_notes: 'allow',
      add_note: 'allow',
      delete_note: 'allow',
    });
    expect(() => read('{"tools": {"notes_add_note": "no"}}')).toThrow(
      /tools.notes_add_note \(line 1\) is not true or false/,
    );
  });

  it('matches the name opencode gives a server key with other characters', () => {
    const tools = notesTools('my.notes');
    const text = json({ 'my.notes_delete_note': 'deny', my_notes_add_note: 'ask' });
    expect(decisions(text, tools)).toEqual({
      list_notes: 'allow',
      add_note: 'ask',
      delete_note: 'allow',
    });
  });

  it('a server with enabled: false offers no tool', () => {
    const text = '{\n  "mcp": {\n    "notes": { "type": "local", "enabled": false }\n  }\n}\n';
    expect(opencode.decide(read(text), NOTES[0] as ClientTool)).toMatchObject({
      decision: 'hidden',
      line: 3,
    });
  });

  it('reads comments and trailing commas, in opencode.json and opencode.jsonc, with the file’s lines', () => {
    const text =
      '// rules\n{\n  /* c */ "permission": {\n    "notes_delete_note": "deny", // no\n  },\n}\n';
    for (const path of [FILE, 'opencode.jsonc']) {
      const verdict = opencode.decide(
        read(text, path),
        NOTES.find((t) => t.tool === 'delete_note') as ClientTool,
      );
      expect(verdict).toMatchObject({ decision: 'deny', file: path, line: 4 });
    }
  });

  it('merges the files as opencode does: a key keeps its first place, the later file’s value', () => {
    const state = opencode.read([
      { path: FILE, text: json({ notes_list_notes: 'ask', 'notes_*': 'ask' }) },
      {
        path: '.opencode/opencode.json',
        text: json({ notes_list_notes: 'deny', notes_add_note: 'ask' }),
      },
      {
        path: '.opencode/opencode.jsonc',
        text: json({ notes_list_notes: 'allow', notes_add_note: 'deny' }),
      },
    ]);
    expect(Object.fromEntries(NOTES.map((t) => [t.tool, opencode.decide(state, t)]))).toEqual({
      // notes_* keeps its place after notes_list_notes, so it decides list_notes still.
      list_notes: { decision: 'ask', rule: '"notes_*": "ask"', file: FILE, line: 4 },
      add_note: {
        decision: 'deny',
        rule: '"notes_add_note": "deny"',
        file: '.opencode/opencode.jsonc',
        line: 4,
      },
      delete_note: { decision: 'ask', rule: '"notes_*": "ask"', file: FILE, line: 4 },
    });
  });

  it('refuses what stops opencode from starting: a value not allow/ask/deny, text that is not JSONC', () => {
    expect(() => read(json({ notes_delete_note: 'block' }))).toThrow(
      /opencode refuses to start with opencode.json: permission.notes_delete_note \(line 3\) is not one of "allow", "ask", "deny"/,
    );
    expect(() => read('{\n  "permission": {\n')).toThrow(AuditError);
    expect(() => read('{\n  "permission": {\n')).toThrow(
      /opencode.json is not valid JSON at line 2/,
    );
    expect(() => read('{"permission": 3}')).toThrow(/permission \(line 1\) is not/);
  });
});

describe('problems', () => {
  const problems = (text: string, tools = NOTES) => wordedProblems(opencode, read(text), tools);

  it('rule-ignored: a key with a character opencode writes as _, another case, a pattern MCP calls never have', () => {
    const found = problems(
      json({
        'my.notes_delete_note': 'deny',
        NOTES_ADD_NOTE: 'ask',
        notes_list_notes: { 'x *': 'deny' },
      }),
      [...notesTools('my.notes'), ...NOTES],
    );
    expect(found.map((p) => [p.id, p.line])).toEqual([
      ['rule-ignored', 3],
      ['rule-ignored', 4],
      ['rule-ignored', 6],
    ]);
    expect(found[0]?.message).toBe(
      'opencode: "my.notes_delete_note": "deny" in opencode.json line 3 is ignored: opencode names the tool my_notes_delete_note (every character but letters, digits, _ and - is written as _).',
    );
    expect(found[1]?.message).toContain('opencode names the tool notes_add_note, and case counts');
    expect(found[2]?.message).toContain('matched with the pattern "*", which "x *" never matches');
  });

  it('rule-stale: a key aimed at a recorded or configured server that names no recorded tool', () => {
    const found = problems(
      json({ notes_gone: 'deny', 'notes_*': 'ask', bash: 'ask', other_x: 'deny' }),
    );
    expect(found).toEqual([
      expect.objectContaining({
        id: 'rule-stale',
        line: 3,
        message:
          'opencode: "notes_gone": "deny" in opencode.json line 3 names no tool the class list records.',
      }),
    ]);
  });

  it('rule-shadowed: a key a later key always overrides (last match wins)', () => {
    const found = problems(
      json({ notes_delete_note: 'deny', 'notes_*': 'allow', notes_add_note: 'ask', '*': 'ask' }),
    );
    expect(found.map((p) => [p.id, p.line])).toEqual([
      ['rule-shadowed', 3],
      ['rule-shadowed', 4],
      ['rule-shadowed', 5],
    ]);
    expect(found[0]?.message).toBe(
      'opencode: "notes_delete_note": "deny" in opencode.json line 3 decides nothing: "notes_*": "allow" (opencode.json line 4) comes after it and matches every tool it does, and in opencode the last matching key wins.',
    );
    expect(problems(json({ '*': 'ask', 'notes_*': 'allow', notes_delete_note: 'deny' }))).toEqual(
      [],
    );
  });
});
