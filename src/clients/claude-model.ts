import type { SettingsFile } from './claude-settings.js';
import { RuleIndex, type Effective, type SettingsRule, type ToolRef } from './permissions.js';
import type { CheckedSettings, SettingsItem, SettingsSource } from './settings-check.js';

/*
 * What Claude Code does with an MCP tool under every settings file it reads, beyond the rule
 * lists: the permission mode (bypassPermissions honoured from user settings only; dontAsk and
 * plan from any file), PreToolUse hooks, servers kept off, and files it drops whole. Each fact was observed on the binary (test/oracle/claude-code.test.ts).
 */

/** Files in the order their modes override each other: user, then project, then local. */
const PRECEDENCE: SettingsSource[] = ['user', 'project', 'local'];

/** A settings file from a caller that read it for writing: taken as the project file. */
export function asChecked(file: SettingsFile | CheckedSettings): CheckedSettings {
  return 'source' in file
    ? file
    : { ...file, source: 'project', hooks: [], disabledServers: [], needsTrust: true };
}

/** The mode that decides, and the setting that makes it so (none for `default`). */
export interface ModeState {
  mode: 'default' | 'bypassPermissions' | 'dontAsk' | 'plan';
  by?: SettingsItem;
  /** A bypassPermissions Claude Code ignores, with why. */
  ignoredBypass: { item: SettingsItem; why: string }[];
}

/** The permission mode the files leave Claude Code in. */
export function modeOf(files: CheckedSettings[]): ModeState {
  const state: ModeState = { mode: 'default', ignoredBypass: [] };
  const read = files.filter((f) => !f.ignored);
  for (const source of PRECEDENCE)
    for (const file of read.filter((f) => f.source === source)) {
      if (!file.mode) continue;
      const mode = file.mode.value;
      if (mode === 'bypassPermissions' && source !== 'user') {
        // Observed: the ignored mode resets to default, it does not fall back to the user's.
        state.ignoredBypass.push({
          item: file.mode,
          why: `Claude Code takes bypassPermissions only from user settings or the command line (${source} settings are repo-controllable)`,
        });
        state.mode = 'default';
        delete state.by;
      } else if (mode === 'bypassPermissions' || mode === 'dontAsk' || mode === 'plan') {
        state.mode = mode;
        state.by = file.mode;
      } else {
        // default, manual, acceptEdits (no effect on MCP tools), auto (taken as default).
        state.mode = 'default';
        delete state.by;
      }
    }
  const disable = read.find((f) => f.disableBypass)?.disableBypass;
  if (state.mode === 'bypassPermissions' && disable) {
    state.ignoredBypass.push({
      item: state.by as SettingsItem,
      why: `${disable.file} line ${disable.line} sets disableBypassPermissionsMode`,
    });
    state.mode = 'default';
    delete state.by;
  }
  return state;
}

/**
 * Whether a PreToolUse hook's matcher covers the tool: none, `""` or `*` cover every tool, a
 * plain `A|B` names tools exactly. A regular expression is not run (a committed one could take
 * forever): `prefix.*` is judged by its literal prefix, anything else is taken to match.
 */
export function hookMatches(matcher: string, fullName: string): boolean {
  if (matcher === '' || matcher === '*') return true;
  if (/^[A-Za-z0-9_|-]+$/.test(matcher)) return matcher.split('|').includes(fullName);
  const prefix = /^\^?([A-Za-z0-9_-]*)\.\*\$?$/.exec(matcher);
  return prefix ? fullName.startsWith(prefix[1] as string) : true;
}

/** The merged settings, compiled once: what every tool's decision is made from. */
export interface ClaudeCodeState {
  files: CheckedSettings[];
  index: RuleIndex;
  mode: ModeState;
  hooks: SettingsItem[];
  disabled: Map<string, SettingsItem>;
}

/**
 * The rules that apply: those of the files Claude Code reads. Allow rules of a file that needs
 * trust count too: the check takes the workspace as trusted, as it is wherever people work in it.
 */
export function appliedRules(files: CheckedSettings[]): SettingsRule[] {
  return files.filter((f) => !f.ignored).flatMap((f) => f.rules);
}

export function claudeCodeState(given: (SettingsFile | CheckedSettings)[]): ClaudeCodeState {
  const files = given.map(asChecked);
  const read = files.filter((f) => !f.ignored);
  const disabled = new Map<string, SettingsItem>();
  for (const item of read.flatMap((f) => f.disabledServers))
    if (!disabled.has(item.value)) disabled.set(item.value, item);
  return {
    files,
    index: new RuleIndex(appliedRules(files)),
    mode: modeOf(files),
    hooks: read.flatMap((f) => f.hooks),
    disabled,
  };
}

const as = (list: SettingsRule['list'], rule: string, item: SettingsItem): SettingsRule => ({
  list,
  rule,
  file: item.file,
  line: item.line,
});

/**
 * What Claude Code does with one tool: a server kept off, then deny, ask (refused unasked in
 * dontAsk mode), plan mode's refusal of a tool that is not read-only, allow, a PreToolUse hook
 * (taken to approve: its output cannot be known), bypass mode, and last dontAsk's refusal.
 * `unset` is where Claude Code asks.
 */
export function decideTool(state: ClaudeCodeState, ref: ToolRef, readOnly: boolean): Effective {
  const off = state.disabled.get(ref.server);
  if (off)
    return { decision: 'deny', by: as('deny', `disabledMcpjsonServers: "${off.value}"`, off) };
  const { mode } = state;
  const modeRule = (list: SettingsRule['list']) =>
    as(list, `defaultMode: "${mode.mode}"`, mode.by as SettingsItem);
  const deny = state.index.matching('deny', ref)[0];
  if (deny) return { decision: 'deny', by: deny.rule };
  const ask = state.index.matching('ask', ref)[0];
  if (ask)
    return mode.mode === 'dontAsk'
      ? { decision: 'deny', by: modeRule('deny') }
      : { decision: 'ask', by: ask.rule };
  if (mode.mode === 'plan' && !readOnly) return { decision: 'deny', by: modeRule('deny') };
  const allow = state.index.matching('allow', ref)[0];
  if (allow) return { decision: 'allow', by: allow.rule };
  const hook = state.hooks.find((h) => hookMatches(h.value, ref.fullName));
  if (hook)
    return {
      decision: 'allow',
      by: as('allow', `PreToolUse hook (matcher ${JSON.stringify(hook.value)})`, hook),
    };
  if (mode.mode === 'bypassPermissions') return { decision: 'allow', by: modeRule('allow') };
  if (mode.mode === 'dontAsk') return { decision: 'deny', by: modeRule('deny') };
  return { decision: 'unset' };
}
