// `rules --client opencode --write`: the class list's rules as exact permission keys after every
// other key (opencode lets the last matching key decide), merged into opencode.json keeping every
// other byte, comments too, idempotent, refusing what does not parse (the oracle runs the written
// file on the real opencode).
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClassDecisions } from '../../src/clients/client.js';
import { opencode } from '../../src/clients/opencode/index.js';
import { AuditError } from '../../src/errors.js';
import { notesTools } from '../support/client-tools.js';

// Positions come from jsonc-parser, which the row's load() brings in.
beforeAll(() => opencode.load?.());

const MAPPING: ClassDecisions = { read: 'allow', edit: 'ask', delete: 'deny' };
const NOTES = notesTools();
const write = (existing: string | undefined, tools = NOTES) =>
  opencode.writeRules(existing, tools, MAPPING);
/** The decisions opencode takes from the written file. */
const decided = (text: string) =>
  Object.fromEntries(
    NOTES.map((t) => [
      t.tool,
      opencode.decide(opencode.read([{ path: 'opencode.json', text }]), t).decision,
    ]),
  );
const CLASSES = { list_notes: 'allow', add_note: 'ask', delete_note: 'deny' };

const FRESH = `{
  "permission": {
    "notes_add_note": "ask",
    "notes_delete_note": "deny",
    "notes_list_notes": "allow"
  }
}
`;

describe('writeRules', () => {
  it('with no file: one exact key a tool, read allow, edit ask, delete deny', () => {
    expect(write(undefined)).toBe(FRESH);
    expect(decided(FRESH)).toEqual(CLASSES);
  });

  it('puts the keys after broad ones, moving a class-list key from before them; comments kept', () => {
    const existing = `{
  // the team's config
  "model": "x/y",
  "permission": {
    "notes_delete_note": "allow", // old
    "*": "allow",
    "notes_*": "allow"
  }
}
`;
    expect(write(existing)).toBe(`{
  // the team's config
  "model": "x/y",
  "permission": {
    "*": "allow",
    "notes_*": "allow",
    "notes_add_note": "ask",
    "notes_delete_note": "deny",
    "notes_list_notes": "allow"
  }
}
`);
    expect(decided(write(existing))).toEqual(CLASSES);
  });

  it('adds permission to a file without it, and turns a string permission into its "*" key', () => {
    const text = '{\n\t"mcp": { "notes": { "type": "local" } }\n}\n';
    expect(write(text)).toBe(
      '{\n\t"mcp": { "notes": { "type": "local" } },\n\t"permission": {\n\t\t"notes_add_note": "ask",\n\t\t"notes_delete_note": "deny",\n\t\t"notes_list_notes": "allow"\n\t}\n}\n',
    );
    const string = write('{\n  "permission": "ask"\n}\n');
    expect(string).toBe(
      '{\n  "permission": {\n    "*": "ask",\n    "notes_add_note": "ask",\n    "notes_delete_note": "deny",\n    "notes_list_notes": "allow"\n  }\n}\n',
    );
    expect(decided(string)).toEqual(CLASSES);
    expect(write('{}')).toBe(
      '{\n  "permission": {\n    "notes_add_note": "ask",\n    "notes_delete_note": "deny",\n    "notes_list_notes": "allow"\n  }\n}',
    );
  });

  it('writes into an empty or all-class-list permission object, CRLF kept', () => {
    const crlf = '{\r\n  "permission": {\r\n    "notes_list_notes": "deny"\r\n  }\r\n}\r\n';
    const out = write(crlf);
    expect(out).toBe(
      '{\r\n  "permission": {\r\n    "notes_add_note": "ask",\r\n    "notes_delete_note": "deny",\r\n    "notes_list_notes": "allow"\r\n  }\r\n}\r\n',
    );
    expect(decided(write('{"permission": {}}'))).toEqual(CLASSES);
  });

  it('a tool’s own mapped decision wins over its class’s', () => {
    const tools = NOTES.map((t) =>
      t.tool === 'add_note' ? { ...t, decision: 'deny' as const } : t,
    );
    expect(write(undefined, tools)).toContain('"notes_add_note": "deny"');
  });

  it('is idempotent: writing twice changes nothing', () => {
    const once = write('{\n  "permission": { "*": "ask", "notes_delete_note": "allow" }\n}\n');
    expect(write(once)).toBe(once);
    expect(write(FRESH)).toBe(FRESH);
  });

  it('refuses a file that does not parse, naming the file and line', () => {
    expect(() => opencode.writeRules('{\n  "permission": {\n', NOTES, MAPPING)).toThrow(AuditError);
    expect(() =>
      opencode.writeRules('{\n  "a": 1 2\n}', NOTES, MAPPING, 'cfg/opencode.json'),
    ).toThrow(/cfg\/opencode.json is not valid JSON at line 2/);
  });
});
