import { describe, expect, it } from 'vitest';
import { checkClaudeSettings } from '../support/client-problems.js';
import {
  DEFAULT_MAPPING,
  mergePermissions,
  parseMapping,
  parseSettings,
  permissionsFor,
  serversOf,
} from '../../src/clients/claude-code/claude-settings.js';
import { parseClassList } from '../../src/core/classlist.js';
import {
  decide,
  type Decision,
  type SettingsRule,
} from '../../src/clients/claude-code/permissions.js';
import { readFileSync } from 'node:fs';
import { loadJsonText } from '../../src/core/jsontext.js';

// The settings readers take their lines from jsonc-parser, which the CLI loads before them.
await loadJsonText();

const NOTES = ['list_notes', 'add_note', 'delete_note'].map((t) => `mcp__notes__${t}`);

function rules(file: string, lists: Partial<Record<Decision, string[]>>): SettingsRule[] {
  return (['deny', 'ask', 'allow'] as const).flatMap((list) =>
    (lists[list] ?? []).map((rule, i) => ({ list, rule, file, line: i + 1 })),
  );
}
const decisions = (r: SettingsRule[]) => NOTES.map((name) => decide(r, name).decision);

// Each case is a decision the real Claude Code made (test/oracle/claude-code.test.ts runs several).
describe('the Claude Code rule matcher', () => {
  it.each<[string, Partial<Record<Decision, string[]>>, string[]]>([
    [
      'mcp__<server> matches every tool of the server',
      { allow: ['mcp__notes'] },
      ['allow', 'allow', 'allow'],
    ],
    ['mcp__<server>__* too', { allow: ['mcp__notes__*'] }, ['allow', 'allow', 'allow']],
    ['a full name one tool', { allow: ['mcp__notes__add_note'] }, ['unset', 'allow', 'unset']],
    ['a glob in the tool part', { allow: ['mcp__notes__*_notes'] }, ['allow', 'unset', 'unset']],
    [
      'an allow glob outside the tool part approves nothing',
      { allow: ['mcp__*', 'mcp__no*', '*', 'mcp__*__list_notes'] },
      ['unset', 'unset', 'unset'],
    ],
    [
      'an ask glob outside the tool part asks for every MCP tool',
      { ask: ['mcp__*'], allow: ['mcp__notes'] },
      ['ask', 'ask', 'ask'],
    ],
    [
      'a deny glob in the server part denies',
      { deny: ['mcp__no*'], allow: ['mcp__notes'] },
      ['deny', 'deny', 'deny'],
    ],
    [
      'an ask glob over the server names the tool',
      { ask: ['mcp__*__add_note'], allow: ['mcp__notes'] },
      ['allow', 'ask', 'allow'],
    ],
    [
      'a rule with parentheses is skipped, in any list',
      { allow: ['mcp__notes__list_notes(x)'], deny: ['mcp__notes__add_note(y)'] },
      ['unset', 'unset', 'unset'],
    ],
    [
      'an empty tool part matches nothing',
      { ask: ['mcp__notes__'], allow: ['mcp__notes__*'] },
      ['allow', 'allow', 'allow'],
    ],
    [
      'names are case-sensitive',
      { allow: ['MCP__notes__list_notes', 'mcp__Notes__add_note'] },
      ['unset', 'unset', 'unset'],
    ],
    [
      'deny beats ask beats allow, whatever the order',
      { allow: ['mcp__notes'], ask: ['mcp__notes__add_note'], deny: ['mcp__notes__delete_*'] },
      ['allow', 'ask', 'deny'],
    ],
    [
      'rules of other tools decide nothing',
      { allow: ['Bash(npm test)', 'Read', 'mcp__other__x'] },
      ['unset', 'unset', 'unset'],
    ],
  ])('%s', (_name, lists, expected) => {
    expect(decisions(rules('.claude/settings.json', lists))).toEqual(expected);
  });

  it('merges files: a user deny beats a project allow, a project ask beats a local allow; the deciding rule is named', () => {
    const merged = [
      ...rules('~/.claude/settings.json', { deny: ['mcp__notes__delete_note'] }),
      ...rules('.claude/settings.json', {
        allow: ['mcp__notes__*'],
        ask: ['mcp__notes__add_note'],
      }),
      ...rules('.claude/settings.local.json', { allow: ['mcp__notes'] }),
    ];
    expect(decisions(merged)).toEqual(['allow', 'ask', 'deny']);
    expect(decide(merged, 'mcp__notes__delete_note').by).toEqual({
      list: 'deny',
      rule: 'mcp__notes__delete_note',
      file: '~/.claude/settings.json',
      line: 1,
    });
    expect(decide(merged, 'mcp__notes__list_notes').by?.file).toBe('.claude/settings.json');
  });
});

const classList = parseClassList(
  readFileSync('mcp-tool-classes.json', 'utf8'),
  'mcp-tool-classes.json',
);

describe('rules from the class list', () => {
  it('maps read to allow, edit to ask, delete to deny by default, one rule per tool by full name', () => {
    expect(permissionsFor(classList, DEFAULT_MAPPING)).toEqual({
      allow: ['mcp__notes__list_notes'],
      ask: ['mcp__notes__add_note'],
      deny: ['mcp__notes__delete_note'],
    });
  });
  it('takes the mapping per class, per reach and per tool from the config file', () => {
    const mapping = parseMapping(
      { delete: 'ask', closed: { read: 'ask' }, tools: { mcp__notes__add_note: 'allow' } },
      'c.yml',
    );
    expect(permissionsFor(classList, mapping)).toEqual({
      allow: ['mcp__notes__add_note'],
      ask: ['mcp__notes__delete_note', 'mcp__notes__list_notes'],
      deny: [],
    });
    expect(() => parseMapping({ read: 'yes' }, 'c.yml')).toThrow(
      /The config file c\.yml has a bad value at clientRules\.read/,
    );
  });
});

describe('settings files', () => {
  it('names the file and line of what does not parse or has the wrong shape', () => {
    expect(() =>
      parseSettings('{\n  "permissions": {\n    "allow": [,]\n  }\n}\n', 's.json'),
    ).toThrow('The settings file s.json is not valid JSON at line 3, column 15: unexpected ",".');
    expect(() => parseSettings('{\n  "permissions": []\n}', 's.json')).toThrow(
      'The settings file s.json has "permissions" that is not an object (line 2).',
    );
    expect(() => parseSettings('{"permissions": {\n"ask": "mcp__notes"}}', 's.json')).toThrow(
      'The settings file s.json has permissions.ask that is not a list (line 2).',
    );
    expect(() =>
      parseSettings('{"permissions": {"allow": [\n"mcp__notes__list_notes",\n5\n]}}', 's.json'),
    ).toThrow(
      'The settings file s.json has permissions.allow[1] that is not a string: 5 (line 3).',
    );
  });
  it('reads every rule with its line', () => {
    const file = parseSettings(
      '\ufeff{\n "permissions": {\n  "deny": [\n   "a",\n   "b"\n  ]\n }\n}',
      's.json',
    );
    expect(file.rules.map((r) => [r.list, r.rule, r.line])).toEqual([
      ['deny', 'a', 4],
      ['deny', 'b', 5],
    ]);
  });
});

describe('rules --write merges into a settings file', () => {
  const next = permissionsFor(classList, DEFAULT_MAPPING);
  const servers = serversOf(classList);
  const write = (text: string) => mergePermissions(parseSettings(text, 's.json'), next, servers);

  it('replaces only the mcp__ rules of the recorded servers; other keys, Bash rules and other servers stay byte for byte', () => {
    const before =
      '{\n  "model": "x",\n  "permissions": {\n    "allow": [\n      "Bash(npm test)",\n      "mcp__notes__delete_note",\n      "mcp__notes",\n      "mcp__github__get_issue"\n    ],\n    "deny": ["Read(./.env)"],\n    "defaultMode": "default"\n  },\n  "env": {"A": "1"}\n}\n';
    const after = write(before);
    expect(after).toBe(
      '{\n  "model": "x",\n  "permissions": {\n    "allow": [\n      "Bash(npm test)",\n      "mcp__notes__list_notes",\n      "mcp__github__get_issue"\n    ],\n    "deny": [\n      "Read(./.env)",\n      "mcp__notes__delete_note"\n    ],\n    "defaultMode": "default",\n    "ask": [\n      "mcp__notes__add_note"\n    ]\n  },\n  "env": {"A": "1"}\n}\n',
    );
    expect(write(after)).toBe(after);
  });
  it('keeps tabs, no final newline, CRLF and a byte order mark', () => {
    const before = '\ufeff{\r\n\t"permissions": {\r\n\t\t"allow": ["Bash(ls)"]\r\n\t}\r\n}';
    const after = write(before);
    expect(after).toBe(
      '\ufeff{\r\n\t"permissions": {\r\n\t\t"allow": [\r\n\t\t\t"Bash(ls)",\r\n\t\t\t"mcp__notes__list_notes"\r\n\t\t],\r\n\t\t"ask": [\r\n\t\t\t"mcp__notes__add_note"\r\n\t\t],\r\n\t\t"deny": [\r\n\t\t\t"mcp__notes__delete_note"\r\n\t\t]\r\n\t}\r\n}',
    );
    expect(write(after)).toBe(after);
  });
  it('adds permissions to a file without them, and writes a new file', () => {
    const after = write('{\n    "model": "x"\n}\n');
    expect(after).toBe(
      '{\n    "model": "x",\n    "permissions": {\n        "allow": [\n            "mcp__notes__list_notes"\n        ],\n        "ask": [\n            "mcp__notes__add_note"\n        ],\n        "deny": [\n            "mcp__notes__delete_note"\n        ]\n    }\n}\n',
    );
    expect(write(after)).toBe(after);
    expect(write('{}')).toBe(
      '{\n  "permissions": {\n    "allow": [\n      "mcp__notes__list_notes"\n    ],\n    "ask": [\n      "mcp__notes__add_note"\n    ],\n    "deny": [\n      "mcp__notes__delete_note"\n    ]\n  }\n}',
    );
    expect(mergePermissions(undefined, next, servers)).toBe(
      `${JSON.stringify({ permissions: next }, null, 2)}\n`,
    );
  });
});

describe('the check of settings against the class list', () => {
  it('reports each kind of finding at the rule it is about', () => {
    const file = parseSettings(
      JSON.stringify(
        {
          permissions: {
            allow: [
              'mcp__notes',
              'mcp__no*',
              'mcp__notes__list_notes(limit)',
              'mcp__notes__lst_notes',
              'mcp__notes__list_notes',
            ],
            ask: ['mcp__notes__list_*'],
          },
        },
        null,
        2,
      ),
      '.claude/settings.json',
    );
    const check = checkClaudeSettings(classList, [file], DEFAULT_MAPPING, '.claude/settings.json');
    const found = [...check.toolFindings.map((t) => t.finding), ...check.ruleFindings].map((f) => [
      f.rule,
      f.severity,
      f.location?.line,
      f.message,
    ]);
    expect(found).toEqual([
      [
        'rule-allows-edit',
        'warning',
        4,
        'edit tool mcp__notes__add_note: in Claude Code, "mcp__notes" in .claude/settings.json line 4 lets it run without asking (once the workspace is trusted, as the check assumes); the class list maps it to ask.',
      ],
      [
        'rule-allows-delete',
        'error',
        4,
        'delete tool mcp__notes__delete_note: in Claude Code, "mcp__notes" in .claude/settings.json line 4 lets it run without asking (once the workspace is trusted, as the check assumes); the class list maps it to deny.',
      ],
      [
        'rule-ignored',
        'warning',
        5,
        'Claude Code: allow rule "mcp__no*" in .claude/settings.json line 5 is ignored: an allow rule with * outside the tool part approves nothing: Claude Code needs mcp__<server>__ before the *.',
      ],
      [
        'rule-ignored',
        'warning',
        6,
        'Claude Code: allow rule "mcp__notes__list_notes(limit)" in .claude/settings.json line 6 is ignored: Claude Code skips an mcp__ rule with parentheses in a settings file (it cannot match parameter values).',
      ],
      [
        'rule-stale',
        'notice',
        7,
        'Claude Code: allow rule "mcp__notes__lst_notes" in .claude/settings.json line 7 names no tool the class list records.',
      ],
      [
        'rule-shadowed',
        'notice',
        8,
        'Claude Code: allow rule "mcp__notes__list_notes" in .claude/settings.json line 8 decides nothing: mcp__notes__list_notes is decided first by ask rule "mcp__notes__list_*" in .claude/settings.json line 11.',
      ],
    ]);
    expect(check.ruleFindings[0]?.fix).toBe(
      'Probably meant "mcp__notes": write that instead, or remove the rule.',
    );
    expect(check.ruleFindings[1]?.fix).toBe(
      'Probably meant "mcp__notes__list_notes": write that instead (to limit parameter values, use --disallowedTools), or remove the rule.',
    );
  });
  it('says which recorded tools no rule decides', () => {
    const file = parseSettings(
      '{"permissions": {"allow": ["mcp__notes__list_notes"], "ask": ["mcp__gone__x"]}}',
      's.json',
    );
    const check = checkClaudeSettings(classList, [file], DEFAULT_MAPPING, '.claude/settings.json');
    expect(check.toolFindings.map((t) => t.finding.message)).toEqual([
      'No rule of Claude Code decides edit tool mcp__notes__add_note: it asks each time (no rule decides it: Claude Code asks each time).',
      'No rule of Claude Code decides delete tool mcp__notes__delete_note: it asks each time (no rule decides it: Claude Code asks each time); the class list maps it to deny.',
    ]);
    expect(check.ruleFindings.map((f) => f.message)).toEqual([
      'Claude Code: ask rule "mcp__gone__x" in s.json line 1 names server "gone", which the class list does not record.',
    ]);
  });
});

describe('the rules written into a settings file', () => {
  it('write the invisible and C1 characters of tool names as escapes, new file or merged', () => {
    const name = 'mcp__notes__list\u009b31mnotes\u202e';
    const next = { allow: [name], ask: [], deny: [] };
    const servers = new Set(['notes']);
    const fresh = mergePermissions(undefined, next, servers);
    const merged = mergePermissions(
      parseSettings('{\n  "permissions": {\n    "allow": []\n  }\n}\n', 's.json'),
      next,
      servers,
    );
    for (const text of [fresh, merged]) {
      expect(text).not.toMatch(/[\u009b\u202e]/);
      expect(text).toContain('"mcp__notes__list\\u009b31mnotes\\u202e"');
      expect((JSON.parse(text) as { permissions: { allow: string[] } }).permissions.allow).toEqual([
        name,
      ]);
    }
  });
});
