// The Qwen Code model (src/clients/qwen/): its names, how a rule matches, the decision per tool,
// the problems of the rules, and the written rules; each fact as observed on the binary
// (test/oracle/qwen.test.ts runs the real client on the same shapes).
import { wordedProblems } from '../support/client-problems.js';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ClientTool } from '../../src/clients/client.js';
import { qwen } from '../../src/clients/qwen/index.js';
import { qwenName, readQwen, ruleMatches } from '../../src/clients/qwen/model.js';
import { notesByClass, notesTools } from '../support/client-tools.js';

const FILE = '.qwen/settings.json';
const MAPPING = { read: 'allow', edit: 'ask', delete: 'deny' } as const;
beforeAll(async () => {
  await qwen.load?.();
});

const state = (settings: unknown) =>
  qwen.read([{ path: FILE, text: `${JSON.stringify(settings, null, 2)}\n` }]);
const decisions = (settings: unknown, tools: ClientTool[] = notesByClass()) => {
  const s = state(settings);
  return tools.map((t) => qwen.decide(s, t).decision);
};

describe('Qwen Code names', () => {
  it('keeps a safe name and rewrites one with a dot, with a hash of the whole name', () => {
    expect(qwenName('notes', 'delete_note')).toBe('mcp__notes__delete_note');
    // Observed on 0.24.4 (the init event's tool list).
    expect(qwenName('my.notes', 'list_notes')).toBe('mcp__my_notes__list_notes_0id5u0k');
    expect(qwenName('my.notes', 'add_note')).toBe('mcp__my_notes__add_note_1k8xgya');
    expect(qwenName('my.notes', 'delete_note')).toBe('mcp__my_notes__delete_note_1dksfmm');
  });

  it('rewrites a name longer than 63 characters to 63', () => {
    const name = qwenName('s'.repeat(40), 't'.repeat(40));
    expect(name).toHaveLength(63);
    expect(name).toMatch(/^mcp__s+__t+_[0-9a-z]{7}$/);
  });
});

describe('Qwen Code rule matching', () => {
  it.each([
    ['mcp__notes__add_note', 'notes', true],
    ['mcp__notes', 'notes', true],
    ['mcp__notes__*', 'notes', true],
    ['mcp__*', 'notes', true],
    ['mcp__notes__add_*', 'notes', true],
    ['*', 'notes', false],
    ['mcp__notes__add_note(x)', 'notes', false],
    ['MCP__notes__add_note', 'notes', false],
    ['mcp__other', 'notes', false],
    ['mcp__my.notes__add_note', 'my.notes', true],
    ['mcp__my.notes', 'my.notes', true],
    ['mcp__my_notes', 'my.notes', true],
    ['mcp__my_notes__add_*', 'my.notes', true],
    ['mcp__my_notes__add_note', 'my.notes', false],
    ['mcp__my_notes__add_note_1k8xgya', 'my.notes', true],
  ])('%s for server %s: %s', (rule, server, expected) => {
    expect(ruleMatches(rule, server, 'add_note')).toBe(expected);
  });
});

describe('Qwen Code decisions', () => {
  it('deny beats ask beats allow, whatever the order', () => {
    expect(
      decisions({
        permissions: {
          allow: ['mcp__notes'],
          ask: ['mcp__notes__add_note', 'mcp__notes__delete_note'],
          deny: ['mcp__notes__delete_note'],
        },
      }),
    ).toEqual(['allow', 'ask', 'deny']);
  });

  it('with no rule it asks (the classifier), and a trusted server runs its tools', () => {
    expect(decisions({})).toEqual(['ask', 'ask', 'ask']);
    const s = state({ mcpServers: { notes: { command: 'x', trust: true } } });
    const verdict = qwen.decide(s, notesByClass()[2] as ClientTool);
    expect(verdict).toMatchObject({
      decision: 'allow',
      rule: '"trust": true',
      file: FILE,
      line: 5,
    });
    expect(wordedProblems(qwen, s, notesTools())).toEqual([]);
  });

  it('yolo runs everything but what a deny rule refuses, ask rules too', () => {
    const settings = {
      tools: { approvalMode: 'yolo' },
      permissions: { ask: ['mcp__notes__add_note'], deny: ['mcp__notes__delete_note'] },
    };
    expect(decisions(settings)).toEqual(['allow', 'allow', 'deny']);
    expect(qwen.decide(state(settings), notesByClass()[1] as ClientTool)).toMatchObject({
      rule: '"approvalMode": "yolo"',
      line: 3,
    });
  });

  it('joins the lists of every file read', () => {
    const s = readQwen([
      { path: 'a.json', text: '{"permissions": {"allow": ["mcp__notes"]}}' },
      { path: FILE, text: '{"permissions": {"deny": ["mcp__notes__list_notes"]}}' },
    ]);
    expect(notesByClass().map((t) => qwen.decide(s, t).decision)).toEqual([
      'deny',
      'allow',
      'allow',
    ]);
  });

  it('reads comments, and refuses a list of the wrong type naming the line', () => {
    expect(
      qwen.read([{ path: FILE, text: '{\n  // c\n  "permissions": {"deny": ["mcp__notes"]}\n}' }])
        .rules,
    ).toEqual([{ list: 'deny', rule: 'mcp__notes', file: FILE, line: 3 }]);
    expect(() => state({ permissions: { deny: 'mcp__notes' } })).toThrow(
      /permissions\.deny that is not a list of strings \(line 3\)/,
    );
  });
});

describe('Qwen Code rule problems', () => {
  it('says which rules decide nothing, and which name no recorded tool', () => {
    const s = state({
      permissions: {
        allow: ['*', 'mcp__my_notes__add_note', 'mcp__notes__list_notes(x)'],
        deny: ['mcp__notes__delete_notes', 'Bash'],
      },
    });
    const problems = wordedProblems(qwen, s, [...notesTools(), ...notesTools('my.notes')]);
    expect(problems.map((p) => [p.id, p.line])).toEqual([
      ['rule-ignored', 4],
      ['rule-ignored', 5],
      ['rule-ignored', 6],
      ['rule-stale', 9],
    ]);
    expect(problems[1]?.message).toContain('write mcp__my.notes__add_note');
  });
});

describe('rules --client qwen', () => {
  it('writes allow, ask and deny by class, keeps the rest, and is idempotent', () => {
    const existing =
      '{\n    "model": { "name": "x" },\n    "permissions": { "allow": ["Bash"] }\n}\n';
    const written = qwen.writeRules(existing, notesTools(), MAPPING);
    expect(written).toContain('"model": { "name": "x" }');
    expect(qwen.writeRules(written, notesTools(), MAPPING)).toBe(written);
    expect(decisions(JSON.parse(written))).toEqual(['allow', 'ask', 'deny']);
    const dotted = qwen.writeRules(undefined, notesTools('my.notes'), MAPPING);
    expect(decisions(JSON.parse(dotted), notesByClass('my.notes'))).toEqual([
      'allow',
      'ask',
      'deny',
    ]);
  });

  it('refuses a settings file whose lists have the wrong type', () => {
    expect(() => qwen.writeRules('{"permissions": {"allow": "x"}}', notesTools(), MAPPING)).toThrow(
      /Qwen Code settings file/,
    );
  });
});
