// The Cursor model (src/clients/cursor/): its files and names, mcpAllowlist matching with `*`,
// the decision per tool, the problems of the entries, and the written rules. From Cursor's
// documentation only: no Cursor runs here.
import { wordedProblems } from '../support/client-problems.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { cursor } from '../../src/clients/cursor/index.js';
import { entryMatches } from '../../src/clients/cursor/model.js';
import { AuditError } from '../../src/errors.js';
import { notesByClass } from '../support/client-tools.js';

const MCP = '.cursor/mcp.json';
const PERMISSIONS = '.cursor/permissions.json';
const MAPPING = { read: 'allow', edit: 'ask', delete: 'deny' } as const;
beforeAll(async () => {
  await cursor.load?.();
});

const read = (files: Record<string, string>) =>
  cursor.read(Object.entries(files).map(([path, text]) => ({ path, text })));
const allowlist = (...entries: unknown[]) =>
  `{\n  // the team's\n  "mcpAllowlist": [\n${entries.map((e) => `    ${JSON.stringify(e)}`).join(',\n')}\n  ],\n}\n`;
const SERVERS = '{\n  "mcpServers": {\n    "notes": { "command": "node" }\n  }\n}\n';

describe('Cursor as a client', () => {
  it('reads .cursor/mcp.json and .cursor/permissions.json, from its documentation', () => {
    expect(cursor.projectFiles).toEqual([MCP, PERMISSIONS]);
    expect(cursor.verified).toBe('documentation');
    expect(cursor.fullName('notes', 'delete_note')).toBe('notes:delete_note');
    const state = read({ [MCP]: SERVERS });
    expect(cursor.configures(state)).toBe(true);
    expect(state.servers.get('notes')).toEqual({ key: 'notes', file: MCP, line: 3 });
  });

  it('refuses an mcpAllowlist that is not a list, naming the file and line', () => {
    expect(() => read({ [PERMISSIONS]: '{\n  "mcpAllowlist": "notes:*"\n}\n' })).toThrow(
      /Cursor file \.cursor\/permissions\.json has mcpAllowlist that is not a list .*\(line 2\)/,
    );
    expect(() => read({ [MCP]: '{ "mcpServers": [] }' })).toThrow(AuditError);
  });
});

describe('Cursor allowlist matching', () => {
  it.each([
    ['notes:delete_note', true],
    ['notes:*', true],
    ['*:delete_note', true],
    ['*:*', true],
    ['notes:delete_*', true],
    ['notes:list_notes', false],
    ['Notes:delete_note', false],
    ['other:*', false],
    ['notes', false],
    ['mcp__notes__delete_note', false],
  ])('%s matches notes:delete_note: %s', (entry, matches) => {
    expect(entryMatches(entry, 'notes', 'delete_note')).toBe(matches);
  });
});

describe('Cursor decisions', () => {
  it('asks for every MCP tool with no allowlist, whatever its annotations', () => {
    const state = read({ [MCP]: SERVERS });
    const verdicts = notesByClass().map((t) => cursor.decide(state, t));
    expect(verdicts.map((v) => v.decision)).toEqual(['ask', 'ask', 'ask']);
    expect(verdicts[0]).toMatchObject({ file: MCP, line: 3 });
  });

  it('runs an allowlisted tool unasked, naming the entry and its line', () => {
    const state = read({ [MCP]: SERVERS, [PERMISSIONS]: allowlist('github:*', 'notes:*') });
    expect(cursor.decide(state, notesByClass()[2]!)).toMatchObject({
      decision: 'allow',
      rule: 'notes:*',
      file: PERMISSIONS,
      line: 5,
    });
  });
});

describe('Cursor problems', () => {
  it('reports entries Cursor drops or never matches, and one naming no recorded tool', () => {
    const state = read({
      [PERMISSIONS]: allowlist(7, 'mcp__notes__list_notes', 'notes', 'notes:remove_note', 'x:y'),
    });
    expect(wordedProblems(cursor, state, notesByClass()).map((p) => [p.id, p.line])).toEqual([
      ['rule-ignored', 4],
      ['rule-ignored', 5],
      ['rule-ignored', 6],
      ['rule-stale', 7],
    ]);
  });
});

describe('rules --client cursor', () => {
  const tools = notesByClass();

  it('allowlists the read tools only', () => {
    const text = cursor.writeRules(undefined, tools, MAPPING);
    expect(JSON.parse(text)).toEqual({ mcpAllowlist: ['notes:list_notes'] });
  });

  it('takes out an exact entry for an edit tool, keeps the rest byte for byte, idempotently', () => {
    const existing = allowlist('github:*', 'notes:add_note');
    const once = cursor.writeRules(existing, tools, MAPPING);
    expect(once).toBe(
      '{\n  // the team\'s\n  "mcpAllowlist": [\n    "github:*",\n    "notes:list_notes"\n  ],\n}\n',
    );
    expect(cursor.writeRules(once, tools, MAPPING)).toBe(once);
    const state = read({ [PERMISSIONS]: once });
    expect(tools.map((t) => cursor.decide(state, t).decision)).toEqual(['allow', 'ask', 'ask']);
  });

  it('adds the list beside other keys without touching them', () => {
    const once = cursor.writeRules('{\n  "terminalAllowlist": ["git"]\n}\n', tools, MAPPING);
    expect(once).toBe(
      '{\n  "terminalAllowlist": ["git"],\n  "mcpAllowlist": [\n    "notes:list_notes"\n  ]\n}\n',
    );
  });

  it('refuses a broad entry that lets a delete tool run, naming its line', () => {
    expect(() => cursor.writeRules(allowlist('notes:*'), tools, MAPPING)).toThrow(
      /line 4: the mcpAllowlist entry "notes:\*" lets edit tool notes:add_note run without asking/,
    );
  });
});
