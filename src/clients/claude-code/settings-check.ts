import { parseJsonText } from '../../core/jsontext.js';
import { AuditError } from '../../errors.js';
import type { SettingsFile } from './claude-settings.js';
import { DECISIONS, type SettingsRule } from './permissions.js';

/*
 * A Claude Code settings file as the check reads it: what the real client takes from it, observed
 * on the binary. A file that fails the client's validation (not JSON, not an object, a list or a
 * known key of the wrong type) is dropped whole, deny rules included, so here it is read as
 * ignored, with why; a bad entry of a list (not a string, empty) is dropped alone. Besides the
 * rules: the permission mode, the switch that disables bypass mode, the PreToolUse and
 * PermissionRequest hooks and the .mcp.json servers it keeps off. Pure; config/client-settings.ts reads the files.
 */

/** Where Claude Code reads a file from, which decides what it trusts in it. */
export type SettingsSource = 'user' | 'project' | 'local';

/** Something a settings file says besides its rules, where it says it. */
export interface SettingsItem {
  value: string;
  file: string;
  line: number;
}

/** The hook events that can let a tool run without asking. */
export const TOOL_HOOK_EVENTS = ['PreToolUse', 'PermissionRequest'] as const;

/** A tool hook: its `matcher` (`""` when it has none) as `value`, and the event it runs on. */
export interface HookItem extends SettingsItem {
  event: (typeof TOOL_HOOK_EVENTS)[number];
  /** The plugin (`enabledPlugins` key) whose hooks these stand for: they cannot be read here. */
  plugin?: string;
}

export interface CheckedSettings extends SettingsFile {
  source: SettingsSource;
  /** Set when Claude Code drops the whole file: why, and the line that makes it so. */
  ignored?: { why: string; line: number };
  /** `permissions.defaultMode` as written. */
  mode?: SettingsItem;
  /** `permissions.disableBypassPermissionsMode: "disable"`. */
  disableBypass?: SettingsItem;
  /** Each PreToolUse and PermissionRequest hook with at least one command. */
  hooks: HookItem[];
  /** The .mcp.json servers `disabledMcpjsonServers` keeps off. */
  disabledServers: SettingsItem[];
  /**
   * Its allow rules apply only in a workspace whose trust dialog was accepted: so for the project
   * file, and for a settings.local.json git tracks (an untracked one applies anyway).
   */
  needsTrust: boolean;
  /** The path reports show (the action names files from the repository root). */
  shown?: string;
  /**
   * A command or skill, not a settings file: its allow rules hold only while it runs, said on
   * what they decide (config/claude-grants.ts).
   */
  activeWhile?: string;
}

/** The largest settings file the check reads: far above any real one, small enough to bound it. */
export const MAX_SETTINGS_BYTES = 1024 * 1024;

/** The modes `permissions.defaultMode` takes (`manual` is the client's alias for `default`). */
const MODES = ['acceptEdits', 'auto', 'bypassPermissions', 'default', 'dontAsk', 'plan', 'manual'];

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isStrings = (v: unknown): boolean =>
  Array.isArray(v) && v.every((s) => typeof s === 'string');

/**
 * Known keys whose wrong type makes Claude Code drop the file, with the type it wants: the ones
 * verified on the binary. A key not listed is taken as valid: Claude Code keeps unknown keys,
 * and keeps `env: {"A": 1}` and `disabledMcpjsonServers: "notes"` too.
 */
const TOP_LEVEL: Record<string, [string, (v: unknown) => boolean]> = {
  permissions: ['an object', isObject],
  model: ['a string', (v) => typeof v === 'string'],
  // `hooks: []` is kept, `hooks: {PreToolUse: "x"}` drops the file.
  hooks: [
    'an object of lists',
    (v) => Array.isArray(v) || (isObject(v) && Object.values(v).every(Array.isArray)),
  ],
  enableAllProjectMcpServers: ['true or false', (v) => typeof v === 'boolean'],
  apiKeyHelper: ['a string', (v) => typeof v === 'string'],
  cleanupPeriodDays: ['a number', (v) => typeof v === 'number'],
  includeCoAuthoredBy: ['true or false', (v) => typeof v === 'boolean'],
  outputStyle: ['a string', (v) => typeof v === 'string'],
  statusLine: ['an object', isObject],
};
const PERMISSIONS: Record<string, [string, (v: unknown) => boolean]> = {
  allow: ['a list', Array.isArray],
  ask: ['a list', Array.isArray],
  deny: ['a list', Array.isArray],
  defaultMode: [`one of ${MODES.join(', ')}`, (v) => typeof v === 'string' && MODES.includes(v)],
  additionalDirectories: ['a list of strings', isStrings],
  disableBypassPermissionsMode: ['"disable"', (v) => v === 'disable'],
};

/** The first key of `data` (under `where`) that has the wrong type, as a sentence. */
function wrongKey(
  data: Json,
  known: Record<string, [string, (v: unknown) => boolean]>,
  where: string,
): { why: string; key: string } | undefined {
  for (const [key, [want, ok]] of Object.entries(known))
    if (Object.hasOwn(data, key) && !ok(data[key]))
      return { why: `${where}${key} is not ${want}`, key };
  return undefined;
}

/** Where a file is read from: its path against the project's `.claude/` files. */
export function settingsSource(path: string, project: string, local: string): SettingsSource {
  if (path === local) return 'local';
  return path === project ? 'project' : 'user';
}

/**
 * Reads a settings file as Claude Code does (see the module comment). Never throws for the
 * file's content: a file the client drops comes back with `ignored` set and no rules.
 */
export function readForCheck(text: string, path: string, source: SettingsSource): CheckedSettings {
  const empty: CheckedSettings = {
    path,
    text,
    rules: [],
    source,
    hooks: [],
    disabledServers: [],
    needsTrust: source === 'project',
  };
  if (Buffer.byteLength(text, 'utf8') > MAX_SETTINGS_BYTES)
    throw new AuditError(
      `The settings file ${path} is ${Buffer.byteLength(text, 'utf8')} bytes; the check reads settings files of up to ${MAX_SETTINGS_BYTES} bytes.`,
      'A Claude Code settings file is a few kilobytes: check that the path names the right file, or shorten it.',
    );
  let parsed: ReturnType<typeof parseJsonText>;
  try {
    parsed = parseJsonText(text, 'it', '', { lines: true });
  } catch (error) {
    // Only the file's own fault is "dropped"; anything else (a parser not loaded) is ours.
    if (!(error instanceof AuditError)) throw error;
    // "it is not valid JSON at line 3, column 29: ...", said of the file.
    const message = error.message.replace(/\.$/, '');
    const line = Number(/line (\d+)/.exec(message)?.[1] ?? 1);
    return { ...empty, ignored: { why: message, line } };
  }
  const { data, lineOf } = parsed;
  if (!isObject(data)) return { ...empty, ignored: { why: 'it is not a JSON object', line: 1 } };
  const top = wrongKey(data, TOP_LEVEL, '');
  if (top) return { ...empty, ignored: { why: top.why, line: lineOf(top.key) } };
  const permissions = (data.permissions ?? {}) as Json;
  const inner = wrongKey(permissions, PERMISSIONS, 'permissions.');
  if (inner)
    return { ...empty, ignored: { why: inner.why, line: lineOf('permissions', inner.key) } };
  const rules: SettingsRule[] = [];
  for (const list of DECISIONS)
    ((permissions[list] as unknown[] | undefined) ?? []).forEach((rule, index) => {
      // A bad entry is dropped alone (the rest of the list stands).
      if (typeof rule === 'string' && rule !== '')
        rules.push({ list, rule, file: path, line: lineOf('permissions', list, index) });
    });
  const item = (value: unknown, ...at: (string | number)[]): SettingsItem => ({
    value: String(value),
    file: path,
    line: lineOf(...at),
  });
  const hooks = [
    ...toolHooks(data.hooks, (value, ...at) => item(value, 'hooks', ...at)),
    ...pluginHooks(data.enabledPlugins, (...at) => item('', 'enabledPlugins', ...at)),
  ];
  return {
    ...empty,
    rules,
    ...(typeof permissions.defaultMode === 'string'
      ? { mode: item(permissions.defaultMode, 'permissions', 'defaultMode') }
      : {}),
    ...(permissions.disableBypassPermissionsMode === 'disable'
      ? { disableBypass: item('disable', 'permissions', 'disableBypassPermissionsMode') }
      : {}),
    hooks,
    disabledServers: disabledServers(data.disabledMcpjsonServers).map((s, i) =>
      item(s, 'disabledMcpjsonServers', ...(Array.isArray(data.disabledMcpjsonServers) ? [i] : [])),
    ),
  };
}

/**
 * The PreToolUse and PermissionRequest hooks of `hooks` that have a command to run, each with its
 * matcher as written (`""` when it has none) and where it is (`item` locates it).
 */
function toolHooks(
  hooks: unknown,
  item: (value: unknown, ...at: (string | number)[]) => SettingsItem,
): HookItem[] {
  if (!isObject(hooks)) return [];
  return TOOL_HOOK_EVENTS.flatMap((event) => {
    const list = hooks[event];
    return (Array.isArray(list) ? list : []).flatMap((hook: unknown, index) =>
      isObject(hook) && Array.isArray(hook.hooks) && hook.hooks.length
        ? [{ ...item(typeof hook.matcher === 'string' ? hook.matcher : '', event, index), event }]
        : [],
    );
  });
}

/**
 * A plugin the file enables brings hooks of its own (observed: a committed `enabledPlugins` with a
 * marketplace of the PR's runs a PreToolUse hook that approves every tool). Its hooks live outside
 * the settings and cannot be judged here, so each enabled plugin stands as a PermissionRequest
 * hook over every tool: taken to approve whatever would ask (a deny rule still holds).
 */
function pluginHooks(
  plugins: unknown,
  item: (...at: (string | number)[]) => SettingsItem,
): HookItem[] {
  if (!isObject(plugins)) return [];
  return Object.entries(plugins).flatMap(([plugin, on]) =>
    on === true ? [{ ...item(plugin), event: 'PermissionRequest' as const, plugin }] : [],
  );
}

/** The servers `disabledMcpjsonServers` names: the strings of a list (a bare string stands as one). */
function disabledServers(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((s): s is string => typeof s === 'string') : [];
}

/** Names every place in a checked file by `shown` (the action names files from the repository root). */
export function showSettingsAs(file: CheckedSettings, shown: string): void {
  file.shown = shown;
  for (const located of [...file.rules, ...file.hooks, ...file.disabledServers])
    located.file = shown;
  if (file.mode) file.mode.file = shown;
  if (file.disableBypass) file.disableBypass.file = shown;
}
