import type { SettingsFile } from './claude-settings.js';
import { RuleIndex, type Effective, type SettingsRule, type ToolRef } from './permissions.js';
import type { CheckedSettings, HookItem, SettingsItem, SettingsSource } from './settings-check.js';

/*
 * What Claude Code does with an MCP tool under every settings file it reads, beyond the rule
 * lists: the permission mode (bypassPermissions honoured from user settings only; dontAsk and
 * plan from any file), PreToolUse and PermissionRequest hooks, servers kept off, and files it
 * drops whole. Each fact was observed on the binary (test/oracle/claude-code.test.ts).
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

/** Whether a hook's matcher covers a tool: it does, it does not, or the check takes it to. */
export type HookCover = 'match' | 'none' | 'assumed';

/** A matcher Claude Code reads as a list of exact names, split at `|` and `,` and trimmed. */
const NAME_LIST = /^[A-Za-z0-9_|, -]+$/;
/** One `|` alternative of a regular expression the check decides: `^`, literal text and `.*`, `$`. */
const PLAIN_ALTERNATIVE = /^\^?(?:[A-Za-z0-9_,: -]|\.\*)*\$?$/;

/**
 * Whether a PreToolUse or PermissionRequest hook's matcher covers the tool, as Claude Code tests
 * it (read in the binary, observed on it): none, `""` or `*` cover every tool; a matcher of
 * letters, digits, `_`, `-`, spaces, `|` and `,` lists exact names; anything else is an
 * unanchored regular expression tested on the full name. The check never runs that expression
 * (a committed one could take forever): alternatives of literal text, `.*`, `^` and `$` are
 * decided exactly by substring, prefix and suffix; any other shape is taken to match
 * (`assumed`), which can only make the check stricter.
 */
export function hookCover(matcher: string, fullName: string): HookCover {
  if (matcher === '' || matcher === '*') return 'match';
  if (NAME_LIST.test(matcher)) {
    const names = matcher.split(/[|,]/).map((n) => n.trim());
    return names.includes(fullName) && fullName !== '' ? 'match' : 'none';
  }
  const alternatives = matcher.split('|');
  // `.` does not match a line break; a name holding one is not decided here.
  if (/[\n\r\u2028\u2029]/.test(fullName) || !alternatives.every((a) => PLAIN_ALTERNATIVE.test(a)))
    return 'assumed';
  return alternatives.some((a) => alternativeMatches(a, fullName)) ? 'match' : 'none';
}

/** Whether a hook's matcher covers the tool (see hookCover; a matcher not decided covers it). */
export function hookMatches(matcher: string, fullName: string): boolean {
  return hookCover(matcher, fullName) !== 'none';
}

/**
 * Whether `^? part (.* part)* $?` finds a match in `name`: an anchored first part is a prefix,
 * an anchored last part a suffix, and the parts between are found leftmost, in order (the
 * earliest place of each leaves the most room for the rest, so this is exact).
 */
function alternativeMatches(alternative: string, name: string): boolean {
  const start = alternative.startsWith('^');
  const end = alternative.endsWith('$');
  const parts = alternative.slice(start ? 1 : 0, end ? -1 : undefined).split('.*');
  if (parts.length === 1) {
    const part = parts[0] as string;
    if (start && end) return name === part;
    if (start) return name.startsWith(part);
    return end ? name.endsWith(part) : name.includes(part);
  }
  const first = parts[0] as string;
  const last = parts.at(-1) as string;
  let from = 0;
  let to = name.length;
  if (start) {
    if (!name.startsWith(first)) return false;
    from = first.length;
  }
  if (end) {
    if (!name.endsWith(last) || name.length - last.length < from) return false;
    to = name.length - last.length;
  }
  for (const part of parts.slice(start ? 1 : 0, end ? -1 : undefined)) {
    const at = name.indexOf(part, from);
    if (at < 0 || at + part.length > to) return false;
    from = at + part.length;
  }
  return true;
}

/** The merged settings, compiled once: what every tool's decision is made from. */
export interface ClaudeCodeState {
  files: CheckedSettings[];
  index: RuleIndex;
  mode: ModeState;
  hooks: HookItem[];
  disabled: Map<string, SettingsItem>;
}

/**
 * The rules that apply: those of the files Claude Code reads. Allow rules of a file that needs
 * trust count too: the check takes the workspace as trusted, as it is wherever people work in it.
 */
export function appliedRules(files: CheckedSettings[]): SettingsRule[] {
  return files.filter((f) => !f.ignored).flatMap((f) => f.rules);
}

/** Compiles the settings files Claude Code reads into the state every decision is made from. */
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
 * The hook of `event` that covers the tool, named as the decision shows it: the first whose
 * matcher is decided to cover it, else the first taken to (so a message names a sure one).
 */
function coveringHook(
  state: ClaudeCodeState,
  event: HookItem['event'],
  fullName: string,
): SettingsRule | undefined {
  let assumed: HookItem | undefined;
  for (const hook of state.hooks) {
    if (hook.event !== event) continue;
    if (hook.plugin !== undefined)
      return as(
        'allow',
        `the hooks of plugin ${JSON.stringify(hook.plugin)} (enabledPlugins: they cannot be read here, taken to approve every tool)`,
        hook,
      );
    const cover = hookCover(hook.value, fullName);
    if (cover === 'match')
      return as('allow', `${event} hook (matcher ${JSON.stringify(hook.value)})`, hook);
    if (cover === 'assumed') assumed ??= hook;
  }
  if (!assumed) return undefined;
  const why = 'a pattern the check does not run, taken to match every tool';
  return as('allow', `${event} hook (matcher ${JSON.stringify(assumed.value)}, ${why})`, assumed);
}

/**
 * What Claude Code does with one tool: a server kept off, then deny, ask (refused unasked in
 * dontAsk mode), plan mode's refusal of a tool that is not read-only, allow, a PreToolUse hook,
 * bypass mode, and last dontAsk's refusal. A hook is taken to approve (its output cannot be
 * known): a PermissionRequest hook answers where Claude Code would prompt (an ask rule, plan
 * mode's refusal, no rule), observed so even against an ask rule; a deny rule and dontAsk still
 * refuse. `unset` is where Claude Code asks.
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
  const answered = coveringHook(state, 'PermissionRequest', ref.fullName);
  // Where Claude Code would prompt, a PermissionRequest hook answers instead.
  const prompt = (otherwise: Effective): Effective =>
    answered ? { decision: 'allow', by: answered } : otherwise;
  const ask = state.index.matching('ask', ref)[0];
  if (ask)
    return mode.mode === 'dontAsk'
      ? { decision: 'deny', by: modeRule('deny') }
      : prompt({ decision: 'ask', by: ask.rule });
  if (mode.mode === 'plan' && !readOnly) return prompt({ decision: 'deny', by: modeRule('deny') });
  const allow = state.index.matching('allow', ref)[0];
  if (allow) return { decision: 'allow', by: allow.rule };
  const approved = coveringHook(state, 'PreToolUse', ref.fullName);
  if (approved) return { decision: 'allow', by: approved };
  if (mode.mode === 'bypassPermissions') return { decision: 'allow', by: modeRule('allow') };
  if (mode.mode === 'dontAsk') return { decision: 'deny', by: modeRule('deny') };
  // Observed: plan mode's check of a read-only tool no rule decides is no prompt a hook answers.
  return mode.mode === 'plan' ? { decision: 'unset' } : prompt({ decision: 'unset' });
}
