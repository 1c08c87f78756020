// The real Claude Code is the oracle for the settings check: for each settings shape below it
// tries list_notes, add_note and delete_note of the notes server (the example's tools, raw-notes.mjs), and what it did (ran, asked,
// refused) must be what check --settings says it decides. Skipped with SKIP_ORACLES=1.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { copyFile } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, removeTempDirs, runCli, tempDir } from '../support/cli.js';
import { checked, observe, project, type Case } from './claude-harness.js';
import { expectPredicted, pooled, type Observed } from './harness.js';

const skip = process.env.SKIP_ORACLES === '1';
afterAll(removeTempDirs);

const P = (permissions: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  ...extra,
  permissions,
});
const ALLOW_ALL = P({ allow: ['mcp__notes'] });
const DENY_DELETE = ['mcp__notes__delete_note'];
const X = 'mcp__notes__x';
/** What a hook prints to approve the tool, for each event. */
const APPROVE = {
  PreToolUse: '"permissionDecision":"allow"',
  PermissionRequest: '"decision":{"behavior":"allow"}',
};
/** Hooks of one event that approve, one per matcher. */
const hooksOn = (event: keyof typeof APPROVE, ...matchers: string[]) => ({
  [event]: matchers.map((matcher) => ({
    matcher,
    hooks: [
      {
        type: 'command',
        command: `echo '{"hookSpecificOutput":{"hookEventName":"${event}",${APPROVE[event]}}}'`,
      },
    ],
  })),
});
const hook = (matcher: string) => ({ hooks: hooksOn('PreToolUse', matcher) });
const permissionHook = (matcher: string, permissions: Record<string, unknown> = {}) => ({
  hooks: hooksOn('PermissionRequest', matcher),
  permissions,
});
const SANDBOX = { IS_SANDBOX: '1' };

/** Settings shapes, each verified on the binary: [what it shows, the case]. */
const MATRIX: [string, Case][] = [
  // Plain rule matching.
  [
    'a server-wide allow, a glob deny',
    { project: P({ allow: ['mcp__notes'], deny: ['mcp__notes__delete_*'] }) },
  ],
  ['a glob in the tool part', { project: P({ allow: ['mcp__notes__*_notes'] }) }],
  [
    'allow globs outside the tool part, parentheses',
    {
      project: P({
        allow: ['mcp__*', 'mcp__no*', 'mcp__notes__list_notes(x)', 'mcp__notes__add_note'],
      }),
    },
  ],
  [
    'a user deny against a project allow',
    { user: P({ deny: DENY_DELETE }), project: P({ allow: ['mcp__notes__*'] }) },
  ],
  [
    'a project ask beating a local allow',
    { project: P({ ask: ['mcp__notes__add_note'] }), local: ALLOW_ALL },
  ],
  [
    'an ask glob over every MCP tool',
    { project: P({ ask: ['mcp__*'], allow: ['mcp__notes__list_notes'] }) },
  ],
  ['a deny glob in the server part', { project: P({ deny: ['mcp__no*'], allow: ['mcp__notes'] }) }],
  ['** as *', { project: P({ allow: ['mcp__notes__**'] }) }],
  [
    '? and [...] literal',
    { project: P({ allow: ['mcp__notes__list_note?', 'mcp__notes__[a]dd_note'] }) },
  ],
  [
    'two globs in the tool part',
    { project: P({ allow: ['mcp__notes__l*t*s'], deny: ['mcp__notes__*e*e*'] }) },
  ],
  [
    'case-sensitive server and tool',
    { project: P({ allow: ['mcp__Notes', 'mcp__notes__List_notes'], deny: ['mcp__NOTES'] }) },
  ],
  [
    'whitespace never trimmed',
    {
      project: P({
        allow: [' mcp__notes__list_notes', 'mcp__notes__add_note '],
        deny: [' mcp__notes'],
      }),
    },
  ],
  // Server keys holding __.
  [
    'key notes__x: allow mcp__notes, mcp__notes__*, mcp__notes__x',
    { key: 'notes__x', project: P({ allow: ['mcp__notes', 'mcp__notes__*', X, `${X}*`] }) },
  ],
  ['key notes__x: allow mcp__notes__x__*', { key: 'notes__x', project: P({ allow: [`${X}__*`] }) }],
  [
    'key notes__x: allow by name and tool glob',
    { key: 'notes__x', project: P({ allow: [`${X}__list_notes`, `${X}__*_note`] }) },
  ],
  [
    'key notes__x: deny mcp__notes',
    { key: 'notes__x', project: P({ deny: ['mcp__notes'], allow: [`${X}__*`] }) },
  ],
  [
    'key notes__x: deny mcp__notes__x',
    { key: 'notes__x', project: P({ deny: [X], allow: [`${X}__*`] }) },
  ],
  [
    'key notes__x: deny mcp__notes__*_notes',
    { key: 'notes__x', project: P({ deny: ['mcp__notes__*_notes'], allow: [`${X}__*`] }) },
  ],
  [
    'key notes__x: deny mcp__notes__y, by name',
    {
      key: 'notes__x',
      project: P({ deny: ['mcp__notes__y', `${X}__delete_note`], allow: [`${X}__*`] }),
    },
  ],
  [
    'key notes__x: ask mcp__notes__*',
    { key: 'notes__x', project: P({ ask: ['mcp__notes__*'], allow: [`${X}__list_notes`] }) },
  ],
  // Files Claude Code drops whole, and entries it drops alone.
  [
    'a project file with a trailing comma',
    { user: ALLOW_ALL, project: '{"permissions": {"deny": ["mcp__notes__delete_note"],}}\n' },
  ],
  [
    'a project file with a comment',
    { user: ALLOW_ALL, project: '// no\n{"permissions": {"deny": ["mcp__notes__delete_note"]}}\n' },
  ],
  ['a project file that is a list', { user: ALLOW_ALL, project: '["mcp__notes__delete_note"]\n' }],
  [
    'defaultMode "yolo"',
    { user: ALLOW_ALL, project: P({ deny: DENY_DELETE, defaultMode: 'yolo' }) },
  ],
  [
    'additionalDirectories "/data"',
    { user: ALLOW_ALL, project: P({ deny: DENY_DELETE, additionalDirectories: '/data' }) },
  ],
  ['model 123', { user: ALLOW_ALL, project: P({ deny: DENY_DELETE }, { model: 123 }) }],
  [
    'deny that is a string',
    {
      user: ALLOW_ALL,
      project: P({ deny: 'mcp__notes__delete_note', ask: ['mcp__notes__add_note'] }),
    },
  ],
  ['permissions null', { user: ALLOW_ALL, project: '{"permissions": null}\n' }],
  [
    'disableBypassPermissionsMode true',
    { user: ALLOW_ALL, project: P({ deny: DENY_DELETE, disableBypassPermissionsMode: true }) },
  ],
  [
    'hooks.PreToolUse a string',
    {
      user: ALLOW_ALL,
      project: { hooks: { PreToolUse: 'x' }, permissions: { deny: DENY_DELETE } },
    },
  ],
  [
    'a broken user file',
    { user: '{"permissions": {"deny": ["mcp__notes__delete_note"]},}', project: ALLOW_ALL },
  ],
  ['a broken local file', { local: '{', project: P({ allow: ['mcp__notes__list_notes'] }) }],
  [
    'bad entries dropped alone',
    { user: ALLOW_ALL, project: P({ deny: [5, '', null, 'mcp__notes__delete_note'] }) },
  ],
  [
    'unknown keys kept',
    {
      user: ALLOW_ALL,
      project: P({ deny: DENY_DELETE, extra: 1 }, { foo: [1], env: { A: 1 }, hooks: [] }),
    },
  ],
  [
    'duplicate permissions: the last counts',
    {
      user: ALLOW_ALL,
      project:
        '{"permissions": {"deny": ["mcp__notes__delete_note"]}, "permissions": {"deny": ["mcp__notes__add_note"]}}\n',
    },
  ],
  // Trust.
  [
    'a tracked settings.local.json',
    { trackLocal: true, local: P({ allow: ['mcp__notes'], deny: DENY_DELETE }) },
  ],
  ['an untracked settings.local.json', { local: P({ allow: ['mcp__notes'] }) }],
  // Modes.
  [
    'project bypassPermissions',
    { env: SANDBOX, project: P({ defaultMode: 'bypassPermissions', deny: DENY_DELETE }) },
  ],
  ['local bypassPermissions', { env: SANDBOX, local: P({ defaultMode: 'bypassPermissions' }) }],
  [
    'user bypassPermissions with ask and deny',
    {
      env: SANDBOX,
      user: P({
        defaultMode: 'bypassPermissions',
        ask: ['mcp__notes__add_note'],
        deny: DENY_DELETE,
      }),
    },
  ],
  [
    'user bypassPermissions, project disables it',
    {
      env: SANDBOX,
      user: P({ defaultMode: 'bypassPermissions' }),
      project: P({ disableBypassPermissionsMode: 'disable' }),
    },
  ],
  [
    'project bypassPermissions resets a user dontAsk',
    {
      env: SANDBOX,
      user: P({ defaultMode: 'dontAsk' }),
      project: P({ defaultMode: 'bypassPermissions' }),
    },
  ],
  [
    'project dontAsk',
    {
      project: P({
        defaultMode: 'dontAsk',
        allow: ['mcp__notes__list_notes'],
        ask: ['mcp__notes__add_note'],
      }),
    },
  ],
  [
    'project dontAsk over user bypass',
    {
      env: SANDBOX,
      user: P({ defaultMode: 'bypassPermissions' }),
      project: P({ defaultMode: 'dontAsk', allow: ['mcp__notes__add_note'] }),
    },
  ],
  [
    'project plan with everything allowed',
    { project: P({ defaultMode: 'plan', allow: ['mcp__notes'] }) },
  ],
  [
    'user plan, local default',
    {
      user: P({ defaultMode: 'plan', allow: ['mcp__notes'] }),
      local: P({ defaultMode: 'default' }),
    },
  ],
  [
    'acceptEdits',
    { project: P({ defaultMode: 'acceptEdits', allow: ['mcp__notes__list_notes'] }) },
  ],
  [
    'defaultMode manual and auto',
    {
      project: P({ defaultMode: 'manual', deny: DENY_DELETE }),
      local: P({ defaultMode: 'auto' }),
      user: ALLOW_ALL,
    },
  ],
  // Hooks and servers kept off.
  ['a PreToolUse hook that approves', { project: hook('mcp__notes__.*') }],
  [
    'a hook that approves against deny and ask',
    { project: { ...hook(''), permissions: { deny: DENY_DELETE, ask: ['mcp__notes__add_note'] } } },
  ],
  ['a hook for another tool', { project: hook('Bash') }],
  [
    'hook matchers: plain words and comma lists name tools exactly, a regex is unanchored',
    {
      project: {
        hooks: hooksOn('PreToolUse', 'notes', 'delete_note.*', 'list_notes, mcp__notes__add_note'),
      },
    },
  ],
  [
    'a PermissionRequest hook against an ask rule',
    { project: permissionHook('mcp__notes__delete_note', { ask: DENY_DELETE }) },
  ],
  [
    'a PermissionRequest hook for every tool against deny and ask',
    { project: permissionHook('', { deny: DENY_DELETE, ask: ['mcp__notes__add_note'] }) },
  ],
  [
    'a PermissionRequest hook with ^, $ and | in its matcher',
    { project: permissionHook('^notes|list_notes$|^mcp__notes__d.*e$') },
  ],
  [
    'a PermissionRequest hook in plan mode',
    { project: permissionHook('', { defaultMode: 'plan' }) },
  ],
  [
    'a PermissionRequest hook in dontAsk mode',
    { project: permissionHook('', { defaultMode: 'dontAsk', ask: ['mcp__notes__add_note'] }) },
  ],
  [
    'a PreToolUse hook leaves an ask rule to a PermissionRequest hook',
    {
      project: {
        hooks: {
          ...hooksOn('PreToolUse', ''),
          ...hooksOn('PermissionRequest', 'mcp__notes__add_note'),
        },
        permissions: { ask: ['mcp__notes__add_note', 'mcp__notes__delete_note'] },
      },
    },
  ],
  [
    'disabledMcpjsonServers in local settings',
    { local: { disabledMcpjsonServers: ['notes'] }, project: ALLOW_ALL },
  ],
  [
    'disabledMcpjsonServers in project settings',
    { project: { disabledMcpjsonServers: ['notes'], ...ALLOW_ALL } },
  ],
  // Commands and skills: their allowed-tools run unasked while they are active, where no ask or
  // deny rule decides (check takes each as active).
  [
    'a command granting add and delete, run',
    command('mcp__notes__delete_note, mcp__notes__add_note'),
  ],
  [
    'a command granting delete, run, against an ask rule',
    { ...command('mcp__notes__delete_note'), project: P({ ask: DENY_DELETE }) },
  ],
  [
    'a command granting delete, run, against a deny rule',
    { ...command('mcp__notes__delete_note'), project: P({ deny: DENY_DELETE }) },
  ],
  [
    'a nested command granting the whole server as a list, run',
    command('\n  - mcp__notes', 'ops/'),
  ],
  ['a command granting a tool glob, run', command('mcp__notes__*_note')],
  [
    'a skill granting delete, run',
    {
      files: {
        '.claude/skills/janitor/SKILL.md':
          '---\nname: janitor\ndescription: clean up notes\nallowed-tools: mcp__notes__delete_note\n---\nDelete old notes.\n',
      },
      prompt: '/janitor',
    },
  ],
  [
    'a skill granting delete, run, against an ask rule',
    {
      files: {
        '.claude/skills/janitor/SKILL.md':
          '---\nname: janitor\ndescription: clean up notes\nallowed-tools: mcp__notes__delete_note\n---\nDelete old notes.\n',
      },
      prompt: '/janitor',
      project: P({ ask: DENY_DELETE }),
    },
  ],
];

/** A custom slash command with these allowed-tools, run as the prompt. */
function command(tools: string, folder = ''): Case {
  return {
    files: {
      [`.claude/commands/${folder}cleanup.md`]: `---\ndescription: clean up\nallowed-tools: ${tools}\n---\nClean up the notes.\n`,
    },
    prompt: `/${folder.replace('/', ':')}cleanup`,
  };
}

// Three cases at once: each is Claude Code and the notes server it starts (check runs in this
// process, one case at a time).
const slot = pooled(3);

// The timeout is a hang guard for a case that waits its turn in the pool.
describe
  .skipIf(skip)
  .concurrent('the real Claude Code agrees with check --settings', { timeout: 600_000 }, () => {
    it('with the rules the class list maps to (rules --write): list_notes runs, add_note asks, delete_note is denied', async () => {
      await slot(async () => {
        const dir = await tempDir();
        await copyFile(join(ROOT, 'mcp-tool-classes.json'), join(dir, 'mcp-tool-classes.json'));
        const written = await runCli(['rules', '--write', '.claude/settings.json'], { cwd: dir });
        expect(written.code, written.stderr).toBe(0);
        const generated = JSON.parse(
          await readFile(join(dir, '.claude/settings.json'), 'utf8'),
        ) as unknown;
        const p = await project({ project: generated });
        const predicted = (await checked(p)).decisions;
        const seen = await observe(p);
        expect(seen.observed).toEqual({
          list_notes: 'allow',
          add_note: 'ask',
          delete_note: 'deny',
        });
        // list_notes ran: the server itself answered.
        expect(seen.results.get('mcp__notes__list_notes')?.text).toBe('No notes saved.');
        expectPredicted(predicted, seen.observed);
      });
    });

    it.each(MATRIX)('with %s', async (_name, c) => {
      await slot(async () => {
        const p = await project(c);
        // Predicted first, from the files as the case wrote them: Claude Code then adds its own
        // enabledMcpjsonServers to .claude/settings.local.json.
        const ours = await checked(p);
        const seen = await observe(p, c.env);
        expectPredicted(ours.decisions, seen.observed, ours.run.stdout);
      });
    });
  });

export type { Observed };
