// The VS Code model (src/clients/vscode/): its files and names, the decision per tool from the
// annotations and chat.tools.eligibleForAutoApproval, the problems of a workspace's settings, and
// the written rules. From VS Code's documentation only: no VS Code runs here.
import { wordedProblems } from '../support/client-problems.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { vscode } from '../../src/clients/vscode/index.js';
import { AuditError } from '../../src/errors.js';
import { notesByClass, toolWith } from '../support/client-tools.js';

const MCP = '.vscode/mcp.json';
const SETTINGS = '.vscode/settings.json';
const MAPPING = { read: 'allow', edit: 'ask', delete: 'deny' } as const;
beforeAll(async () => {
  await vscode.load?.();
});

const SERVERS =
  '{\n  // the notes server\n  "servers": {\n    "notes": { "command": "node", "args": ["server.mjs"] },\n  },\n}\n';

const read = (files: Record<string, string>) =>
  vscode.read(Object.entries(files).map(([path, text]) => ({ path, text })));
const settings = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

describe('VS Code as a client', () => {
  it('reads .vscode/mcp.json and .vscode/settings.json, from its documentation', () => {
    expect(vscode.projectFiles).toEqual([MCP, SETTINGS]);
    expect(vscode.verified).toBe('documentation');
    expect(vscode.fullName('notes', 'delete_note')).toBe('notes/delete_note');
  });

  it('reads servers from JSON with comments and trailing commas, with their lines', () => {
    const state = read({ [MCP]: SERVERS });
    expect(vscode.configures(state)).toBe(true);
    expect(state.servers.get('notes')).toEqual({ key: 'notes', file: MCP, line: 4 });
  });

  it('refuses a file it cannot parse, naming the file and line', () => {
    expect(() => read({ [MCP]: '{\n  "servers": {\n    "notes": \n}\n' })).toThrow(
      /VS Code file \.vscode\/mcp\.json is not valid JSON at line 4/,
    );
    expect(() =>
      read({ [SETTINGS]: settings({ 'chat.tools.eligibleForAutoApproval': [] }) }),
    ).toThrow(AuditError);
  });

  it('configures nothing with settings that say nothing about tools', () => {
    expect(vscode.configures(read({ [SETTINGS]: settings({ 'editor.tabSize': 2 }) }))).toBe(false);
  });
});

describe('VS Code decisions', () => {
  let state: ReturnType<typeof read>;
  beforeAll(() => {
    state = read({ [MCP]: SERVERS });
  });

  it('runs readOnlyHint tools unasked and asks for every other MCP tool', () => {
    const verdicts = notesByClass().map((t) => vscode.decide(state, t));
    expect(verdicts.map((v) => v.decision)).toEqual(['allow', 'ask', 'ask']);
    expect(verdicts[0]).toMatchObject({ file: MCP, line: 4 });
    expect(verdicts[0]?.rule).toBeUndefined();
    expect(verdicts[2]?.byClient).toContain('without readOnlyHint: true');
  });

  it('says a tool with openWorldHint true has its results reviewed too', () => {
    const open = toolWith({ readOnlyHint: true, openWorldHint: true }, 'search', 'read');
    expect(vscode.decide(state, open)).toMatchObject({ decision: 'allow' });
    expect(vscode.decide(state, open).byClient).toContain('results are shown for review');
    expect(
      vscode.decide(state, toolWith({ readOnlyHint: true }, 'x', 'read')).byClient,
    ).not.toContain('review');
  });

  it('asks for a read-only tool that eligibleForAutoApproval sets false, by either name', () => {
    for (const key of ['list_notes', 'notes/list_notes']) {
      const withSetting = read({
        [MCP]: SERVERS,
        [SETTINGS]: settings({ 'chat.tools.eligibleForAutoApproval': { [key]: false } }),
      });
      expect(vscode.decide(withSetting, notesByClass()[0]!)).toMatchObject({
        decision: 'ask',
        rule: `"${key}": false`,
        file: SETTINGS,
        line: 3,
      });
    }
  });

  it('lets a tool marked true decide from its annotations, as with no entry', () => {
    const s = read({
      [SETTINGS]: settings({ 'chat.tools.eligibleForAutoApproval': { delete_note: true } }),
    });
    expect(vscode.decide(s, notesByClass()[2]!).decision).toBe('ask');
  });
});

describe('VS Code problems', () => {
  it('reports a workspace chat.tools.global.autoApprove as ignored (machine scope)', () => {
    const s = read({ [SETTINGS]: settings({ 'chat.tools.global.autoApprove': true }) });
    expect(vscode.configures(s)).toBe(true);
    // Nothing runs unasked because of it.
    expect(vscode.decide(s, notesByClass()[2]!).decision).toBe('ask');
    const [problem, ...rest] = wordedProblems(vscode, s, notesByClass());
    expect(rest).toEqual([]);
    expect(problem).toMatchObject({ id: 'rule-ignored', file: SETTINGS, line: 2 });
    expect(problem?.message).toContain('machine scope');
  });

  it('reports an entry that is not a boolean, and a server/tool entry naming no recorded tool', () => {
    const s = read({
      [SETTINGS]: settings({
        'chat.tools.eligibleForAutoApproval': {
          add_note: 'false',
          'notes/remove_note': false,
          fetch: false,
        },
      }),
    });
    expect(wordedProblems(vscode, s, notesByClass()).map((p) => [p.id, p.line])).toEqual([
      ['rule-ignored', 3],
      ['rule-stale', 4],
    ]);
  });
});

describe('rules --client vscode', () => {
  const tools = notesByClass();

  it('writes false for edit and delete tools, none for read tools', () => {
    const text = vscode.writeRules(undefined, tools, MAPPING);
    expect(JSON.parse(text)).toEqual({
      'chat.tools.eligibleForAutoApproval': { add_note: false, delete_note: false },
    });
    const s = read({ [SETTINGS]: text });
    expect(tools.map((t) => vscode.decide(s, t).decision)).toEqual(['allow', 'ask', 'ask']);
  });

  it('merges into a settings file keeping comments and other keys, idempotently', () => {
    const existing =
      '{\n  // editor\n  "editor.tabSize": 4,\n  "chat.tools.eligibleForAutoApproval": {\n    "list_notes": false,\n    "fetch": false\n  }\n}\n';
    const once = vscode.writeRules(existing, tools, MAPPING);
    expect(once).toContain('// editor\n  "editor.tabSize": 4,');
    expect(once).not.toContain('"list_notes"');
    expect(once).toContain('"fetch": false');
    expect(vscode.writeRules(once, tools, MAPPING)).toBe(once);
    const s = read({ [SETTINGS]: once });
    expect(tools.map((t) => vscode.decide(s, t).decision)).toEqual(['allow', 'ask', 'ask']);
  });

  it('refuses a settings file it cannot parse', () => {
    expect(() => vscode.writeRules('{ "a": ', tools, MAPPING)).toThrow(AuditError);
  });
});
