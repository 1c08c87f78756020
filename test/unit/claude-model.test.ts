// What Claude Code does beyond plain rule matching, each fact observed on the binary (the oracle
// in test/oracle/claude-code.test.ts runs them all): server keys holding __, files it drops
// whole, modes, hooks, servers kept off; and the bound on the work of deciding.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAPPING } from '../../src/clients/claude-code/claude-settings.js';
import {
  claudeCodeState,
  decideTool,
  hookMatches,
} from '../../src/clients/claude-code/claude-model.js';
import { checkClaudeSettings } from '../support/client-problems.js';
import {
  RuleIndex,
  toolRef,
  type SettingsRule,
} from '../../src/clients/claude-code/permissions.js';
import {
  MAX_SETTINGS_BYTES,
  readForCheck,
  type SettingsSource,
} from '../../src/clients/claude-code/settings-check.js';
import { parseClassList } from '../../src/core/classlist.js';
import { loadJsonText } from '../../src/core/jsontext.js';

// The settings readers take their lines from jsonc-parser, which the CLI loads before them.
await loadJsonText();

const TOOLS = ['list_notes', 'add_note', 'delete_note'];
const classList = parseClassList(readFileSync('mcp-tool-classes.json', 'utf8'), 'classes.json');

const file = (source: SettingsSource, value: unknown) =>
  readForCheck(
    typeof value === 'string' ? value : JSON.stringify(value, null, 2),
    `${source}.json`,
    source,
  );
/** Each example tool's decision under the files, for server key `key`. */
function decisions(files: ReturnType<typeof file>[], key = 'notes'): string[] {
  const state = claudeCodeState(files);
  return TOOLS.map((t) => decideTool(state, toolRef(key, t), t === 'list_notes').decision);
}

describe('server keys that hold __', () => {
  const key = 'notes__x';
  it.each([
    ['mcp__notes', ['unset', 'unset', 'unset']],
    ['mcp__notes__*', ['unset', 'unset', 'unset']],
    ['mcp__notes__x', ['unset', 'unset', 'unset']],
    ['mcp__notes__x*', ['unset', 'unset', 'unset']],
    ['mcp__notes__x__*', ['allow', 'allow', 'allow']],
    ['mcp__notes__x__*_note', ['unset', 'allow', 'allow']],
    ['mcp__notes__x__list_notes', ['allow', 'unset', 'unset']],
  ])('allow %s approves only by the key', (rule, expected) => {
    expect(decisions([file('project', { permissions: { allow: [rule] } })], key)).toEqual(expected);
  });
  it.each([
    ['mcp__notes', ['deny', 'deny', 'deny']],
    ['mcp__notes__*', ['deny', 'deny', 'deny']],
    ['mcp__notes__x', ['deny', 'deny', 'deny']],
    ['mcp__notes__x_*', ['deny', 'deny', 'deny']],
    ['mcp__notes__*_notes', ['deny', 'allow', 'allow']],
    ['mcp__notes__y', ['allow', 'allow', 'allow']],
  ])('deny %s reads the name split at its first __', (rule, expected) => {
    const settings = { permissions: { deny: [rule], allow: ['mcp__notes__x__*'] } };
    expect(decisions([file('project', settings)], key)).toEqual(expected);
  });
  it('no longer calls a deny that hits those tools stale, and says why an allow approves nothing', () => {
    const list = parseClassList(
      readFileSync('mcp-tool-classes.json', 'utf8')
        .replaceAll('"notes"', '"notes__x"')
        .replaceAll('"mcp__notes__', '"mcp__notes__x__'),
      'classes.json',
    );
    const settings = file('project', {
      permissions: { allow: ['mcp__notes'], deny: ['mcp__notes__x'] },
    });
    const check = checkClaudeSettings(list, [settings], DEFAULT_MAPPING, '.claude/settings.json');
    // The deny hits every tool (no rule-stale); the allow would not have approved any.
    expect(check.toolFindings).toEqual([]);
    expect(check.ruleFindings.map((f) => [f.rule, f.message])).toEqual([
      [
        'rule-ignored',
        'Claude Code: allow rule "mcp__notes" in project.json line 4 is ignored: the server key "notes__x" holds "__", and Claude Code approves its tools only by full name or mcp__notes__x__*, so it approves nothing.',
      ],
    ]);
  });
});

describe('files Claude Code drops whole', () => {
  const allowAll = file('user', { permissions: { allow: ['mcp__notes'] } });
  it.each([
    [
      'a trailing comma',
      '{"permissions": {"deny": ["mcp__notes__delete_note"],}}',
      /not valid JSON/,
    ],
    ['a comment', '// c\n{"permissions": {"deny": ["mcp__notes__delete_note"]}}', /not valid JSON/],
    ['a list', '["mcp__notes__delete_note"]', /not a JSON object/],
    ['permissions null', '{"permissions": null}', /^permissions is not an object$/],
    [
      'defaultMode "yolo"',
      { permissions: { deny: ['x'], defaultMode: 'yolo' } },
      /defaultMode is not one of/,
    ],
    [
      'additionalDirectories "/data"',
      { permissions: { additionalDirectories: '/data' } },
      /additionalDirectories is not a list of strings/,
    ],
    ['model 123', { model: 123 }, /^model is not a string$/],
    [
      'deny "x"',
      { permissions: { deny: 'mcp__notes__delete_note' } },
      /permissions.deny is not a list/,
    ],
    [
      'disableBypassPermissionsMode true',
      { permissions: { disableBypassPermissionsMode: true } },
      /"disable"/,
    ],
    ['hooks.PreToolUse "x"', { hooks: { PreToolUse: 'x' } }, /hooks is not an object of lists/],
  ])('with %s: its deny does not apply', (_name, value, why) => {
    const dropped = file('project', value);
    expect(dropped.ignored?.why).toMatch(why);
    expect(dropped.rules).toEqual([]);
    expect(decisions([allowAll, dropped])).toEqual(['allow', 'allow', 'allow']);
  });
  it('drops a bad entry alone and keeps unknown keys', () => {
    const kept = file('project', {
      foo: 1,
      env: { A: 1 },
      hooks: [],
      permissions: { deny: [5, '', null, 'mcp__notes__delete_note'], extra: true },
    });
    expect(kept.ignored).toBeUndefined();
    expect(kept.rules.map((r) => [r.rule, r.line])).toEqual([['mcp__notes__delete_note', 12]]);
  });
  it('is an error while a recorded delete tool is not denied, a warning otherwise', () => {
    const broken = file('project', '{"permissions": {"deny": ["mcp__notes__delete_note"],}}');
    const check = (files: ReturnType<typeof file>[]) =>
      checkClaudeSettings(classList, files, DEFAULT_MAPPING, '.claude/settings.json')
        .ruleFindings.filter((f) => f.rule === 'settings-ignored')
        .map((f) => [f.severity, f.location?.line]);
    expect(check([broken])).toEqual([['error', 1]]);
    const denied = file('user', { permissions: { deny: ['mcp__notes__delete_note'] } });
    expect(check([denied, broken])).toEqual([['warning', 1]]);
  });
  it(`refuses a file over ${MAX_SETTINGS_BYTES} bytes, naming it`, () => {
    expect(() => file('project', ' '.repeat(MAX_SETTINGS_BYTES + 1))).toThrow(
      `The settings file project.json is ${MAX_SETTINGS_BYTES + 1} bytes; the check reads settings files of up to ${MAX_SETTINGS_BYTES} bytes.`,
    );
  });
});

describe('modes, hooks and servers kept off', () => {
  const ADD = 'mcp__notes__add_note';
  const DELETE = 'mcp__notes__delete_note';
  const permissionHook = (matcher: string) => ({
    PermissionRequest: [{ matcher, hooks: [{ type: 'command', command: 'x' }] }],
  });
  const P = (permissions: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    ...extra,
    permissions,
  });
  it.each<[string, ReturnType<typeof file>[], string[]]>([
    [
      'project bypassPermissions is ignored',
      [file('project', P({ defaultMode: 'bypassPermissions' }))],
      ['unset', 'unset', 'unset'],
    ],
    [
      'local bypassPermissions is ignored',
      [file('local', P({ defaultMode: 'bypassPermissions' }))],
      ['unset', 'unset', 'unset'],
    ],
    [
      'user bypassPermissions runs what no ask or deny decides',
      [
        file(
          'user',
          P({
            defaultMode: 'bypassPermissions',
            ask: ['mcp__notes__add_note'],
            deny: ['mcp__notes__delete_note'],
          }),
        ),
      ],
      ['allow', 'ask', 'deny'],
    ],
    [
      'disableBypassPermissionsMode beats it',
      [
        file('user', P({ defaultMode: 'bypassPermissions' })),
        file('project', P({ disableBypassPermissionsMode: 'disable' })),
      ],
      ['unset', 'unset', 'unset'],
    ],
    [
      'an ignored project bypass resets a user dontAsk',
      [
        file('user', P({ defaultMode: 'dontAsk' })),
        file('project', P({ defaultMode: 'bypassPermissions' })),
      ],
      ['unset', 'unset', 'unset'],
    ],
    [
      'dontAsk refuses what would ask',
      [
        file(
          'project',
          P({
            defaultMode: 'dontAsk',
            allow: ['mcp__notes__list_notes'],
            ask: ['mcp__notes__add_note'],
          }),
        ),
      ],
      ['allow', 'deny', 'deny'],
    ],
    [
      'plan refuses tools that are not read-only, allowed or not',
      [file('project', P({ defaultMode: 'plan', allow: ['mcp__notes'] }))],
      ['allow', 'deny', 'deny'],
    ],
    [
      'a local default overrides a user plan',
      [
        file('user', P({ defaultMode: 'plan', allow: ['mcp__notes'] })),
        file('local', P({ defaultMode: 'default' })),
      ],
      ['allow', 'allow', 'allow'],
    ],
    [
      'a PreToolUse hook runs what no ask or deny decides',
      [
        file('project', {
          hooks: { PreToolUse: [{ matcher: '', hooks: [{ type: 'command', command: 'x' }] }] },
          permissions: { deny: ['mcp__notes__delete_note'] },
        }),
      ],
      ['allow', 'allow', 'deny'],
    ],
    [
      'a hook for another tool does nothing',
      [
        file('project', {
          hooks: {
            PreToolUse: [{ matcher: 'Bash|Read', hooks: [{ type: 'command', command: 'x' }] }],
          },
        }),
      ],
      ['unset', 'unset', 'unset'],
    ],
    [
      'a PermissionRequest hook answers an ask rule; a deny rule holds',
      [file('project', { hooks: permissionHook(''), permissions: { ask: [ADD], deny: [DELETE] } })],
      ['allow', 'allow', 'deny'],
    ],
    [
      'a PermissionRequest hook for delete_note runs it against an ask rule for it',
      [file('project', { hooks: permissionHook(DELETE), permissions: { ask: [DELETE] } })],
      ['unset', 'unset', 'allow'],
    ],
    [
      "a PermissionRequest hook answers plan mode's refusal, not its check of a read-only tool",
      [file('project', { hooks: permissionHook(''), permissions: { defaultMode: 'plan' } })],
      ['unset', 'allow', 'allow'],
    ],
    [
      'dontAsk refuses before a PermissionRequest hook is asked',
      [
        file('project', {
          hooks: permissionHook(''),
          permissions: { defaultMode: 'dontAsk', ask: [ADD] },
        }),
      ],
      ['deny', 'deny', 'deny'],
    ],
    [
      'a PreToolUse hook leaves an ask rule to the PermissionRequest hook',
      [
        file('project', {
          hooks: {
            PreToolUse: [{ matcher: '', hooks: [{ type: 'command', command: 'x' }] }],
            ...permissionHook(ADD),
          },
          permissions: { ask: [ADD, DELETE] },
        }),
      ],
      ['allow', 'allow', 'ask'],
    ],
    [
      // Observed: a plugin of a marketplace the PR adds runs its own hooks, which approve tools.
      'an enabled plugin brings hooks the check cannot read: taken to approve what would ask; deny holds',
      [
        file('project', {
          enabledPlugins: { 'approver@market': true, 'off@market': false },
          permissions: { allow: ['mcp__notes__list_notes'], ask: [ADD], deny: [] },
        }),
      ],
      ['allow', 'allow', 'allow'],
    ],
    [
      'an enabled plugin does not undo a deny rule',
      [
        file('project', {
          enabledPlugins: { 'approver@market': true },
          permissions: { deny: [DELETE] },
        }),
      ],
      ['allow', 'allow', 'deny'],
    ],
    [
      'a plugin switched off brings nothing',
      [file('project', { enabledPlugins: { 'approver@market': false } })],
      ['unset', 'unset', 'unset'],
    ],
    [
      'disabledMcpjsonServers keeps the server off',
      [
        file('local', { disabledMcpjsonServers: ['notes'] }),
        file('project', P({ allow: ['mcp__notes'] })),
      ],
      ['deny', 'deny', 'deny'],
    ],
  ])('%s', (_name, files, expected) => {
    expect(decisions(files)).toEqual(expected);
  });
  it('names the setting that decides, and reports a committed bypass as ignored', () => {
    const project = file('project', P({ defaultMode: 'bypassPermissions' }));
    const user = file('user', P({ defaultMode: 'bypassPermissions' }));
    const check = checkClaudeSettings(classList, [user, project], DEFAULT_MAPPING, 's.json');
    expect(check.ruleFindings.map((f) => [f.rule, f.severity, f.message])).toEqual([
      [
        'rule-ignored',
        'warning',
        'Claude Code: defaultMode "bypassPermissions" in project.json line 3 is ignored: Claude Code takes bypassPermissions only from user settings or the command line (project settings are repo-controllable); tools are decided by the rules.',
      ],
    ]);
    const honoured = checkClaudeSettings(classList, [user], DEFAULT_MAPPING, 's.json');
    expect(honoured.toolFindings.map((t) => t.finding.message)).toContain(
      'delete tool mcp__notes__delete_note: in Claude Code, "defaultMode: \\"bypassPermissions\\"" in user.json line 3 lets it run without asking; the class list maps it to deny.',
    );
    const state = claudeCodeState([file('user', P({ defaultMode: 'bypassPermissions' }))]);
    expect(decideTool(state, toolRef('notes', 'delete_note'), false)).toEqual({
      decision: 'allow',
      by: { list: 'allow', rule: 'defaultMode: "bypassPermissions"', file: 'user.json', line: 3 },
    });
  });
  // Claude Code's test, read in the binary and run on it: a list of exact names, or an
  // unanchored regular expression on the full name.
  it.each<[string, boolean]>([
    ['', true],
    ['*', true],
    ['notes', false],
    ['delete_note', false],
    [DELETE, true],
    [`Bash, ${DELETE}`, true],
    ['Bash|Read', false],
    ['delete_note.*', true],
    ['notes__delete.*', true],
    ['notes.*', true],
    ['mcp__other__.*', false],
    ['^mcp__notes__d', true],
    ['^notes', false],
    ['note$', true],
    ['notes$', false],
    ['^mcp__notes__add|list_notes$', false],
    ['^mcp.*__.*note$', true],
    ['^mcp.*add.*$', false],
    [`^${DELETE}.*note$`, false],
    [`^${DELETE}$`, true],
    ['^$', false],
    ['Bash|', false],
    ['Bash|^', true],
    // Not decided without running them: taken to match.
    ['(a+)+$', true],
    ['mcp__notes__*', true],
    ['delete\\b', true],
    ['[', true],
  ])('hook matcher %j covers mcp__notes__delete_note: %s', (matcher, expected) => {
    expect(hookMatches(matcher, DELETE)).toBe(expected);
  });
  it('says when a hook is taken to match because its matcher is not run', () => {
    const state = claudeCodeState([file('project', { hooks: permissionHook('(a+)+$') })]);
    expect(decideTool(state, toolRef('notes', 'delete_note'), false)).toEqual({
      decision: 'allow',
      by: {
        list: 'allow',
        rule: 'PermissionRequest hook (matcher "(a+)+$", a pattern the check does not run, taken to match every tool)',
        file: 'project.json',
        line: 4,
      },
    });
  });
  it('names a hook whose matcher surely covers the tool before one taken to', () => {
    const hooks = {
      PermissionRequest: ['(a+)+$', DELETE].map((matcher) => ({
        matcher,
        hooks: [{ type: 'command', command: 'x' }],
      })),
    };
    const state = claudeCodeState([file('project', { hooks })]);
    expect(decideTool(state, toolRef('notes', 'delete_note'), false).by?.rule).toBe(
      'PermissionRequest hook (matcher "mcp__notes__delete_note")',
    );
  });
});

describe('the bound on deciding', () => {
  // The first two count the globs tried, a bound per tool that a check of every pair (a million
  // tries here) passes by hundreds of times at any size; the third is the size a real check meets.
  it('500 tools under 2,000 rules of other servers: no tool tries another server’s rules', () => {
    const rules: SettingsRule[] = Array.from({ length: 2_000 }, (_, i) => ({
      list: (['allow', 'ask', 'deny'] as const)[i % 3] as SettingsRule['list'],
      rule: i % 2 ? `mcp__s${i}__tool_${i}` : `mcp__s${i}__*_${i}*`,
      file: 's.json',
      line: i + 2,
    }));
    rules.push({ list: 'deny', rule: 'mcp__big__delete_*', file: 's.json', line: 1 });
    const index = new RuleIndex(rules);
    const found = Array.from(
      { length: 500 },
      (_, i) => index.decide(toolRef('big', i % 2 ? `delete_${i}` : `read_${i}`)).decision,
    );
    expect(found.filter((d) => d === 'deny')).toHaveLength(250);
    // One glob of the tool's own server per list checked, not 2,000 rules per tool.
    expect(index.globTries).toBeLessThanOrEqual(500 * 3);
  });
  it('500 tools of one server under 2,000 globs of that server: each tool tries only globs with its start and end', () => {
    const rules: SettingsRule[] = Array.from({ length: 2_000 }, (_, i) => ({
      list: (['allow', 'ask', 'deny'] as const)[i % 3] as SettingsRule['list'],
      rule: i % 2 ? `mcp__big__t${i}_*` : `mcp__big__*_x${i}`,
      file: 's.json',
      line: i + 1,
    }));
    const index = new RuleIndex(rules);
    const found = Array.from({ length: 500 }, (_, i) =>
      index.decide(toolRef('big', `t${i}_x${i}`)),
    );
    // t1_x1: "mcp__big__t1_*" (i = 1, ask) decides; t2_x2: "mcp__big__*_x2" (i = 2, deny).
    expect(found[1]).toMatchObject({ decision: 'ask', by: { rule: 'mcp__big__t1_*' } });
    expect(found[2]).toMatchObject({ decision: 'deny', by: { rule: 'mcp__big__*_x2' } });
    expect(index.globTries).toBeLessThanOrEqual(500 * 3 * 2);
  });
  it('the check of 5,000 recorded tools against 20,000 rules looks each tool up, not each pair', () => {
    const tools = Object.fromEntries(
      Array.from({ length: 5_000 }, (_, i) => [
        `tool_${i}`,
        { class: 'read', reach: 'closed', hints: {} },
      ]),
    );
    const text = JSON.stringify({
      permissions: {
        allow: Array.from({ length: 20_000 }, (_, i) => `mcp__other${i}__t*`),
      },
    });
    const settings = readForCheck(text, 's.json', 'project');
    const list = {
      tools: new Map(
        Object.keys(tools).map((t) => [
          `mcp__big__${t}`,
          { server: 'big', tool: t, class: 'read', reach: 'closed' },
        ]),
      ),
    } as unknown as Parameters<typeof checkClaudeSettings>[0];
    const check = checkClaudeSettings(list, [settings], DEFAULT_MAPPING, 's.json');
    // Every rule is stale (it names a server not recorded); the work is per tool and per rule.
    expect(check.ruleFindings).toHaveLength(20_000);
  });
});
