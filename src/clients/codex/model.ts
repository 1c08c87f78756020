import { normalizeServerName } from '../../core/classlist.js';
import { AuditError } from '../../errors.js';
import type { ClientFile, ClientTool, ClientVerdict } from '../client.js';
import { parseToml, pathKey, type TomlDocument, type TomlPath } from './toml.js';

/*
 * What Codex CLI takes from a committed .codex/config.toml for an MCP server's tools, each fact
 * observed on the binary (0.171.0, test/oracle/codex.test.ts): `enabled = false` starts no
 * server; `disabled_tools` hides a tool, `enabled_tools` hides every tool it does not list
 * (exact names; disabled wins); a tool's `[mcp_servers.<key>.tools.<tool>] approval_mode` wins
 * over the server's `default_tools_approval_mode`, and with neither the mode is `auto`. A value
 * that is not one of auto, prompt, writes, approve (case counts), or a key of the wrong type,
 * stops Codex from starting at all; a key it does not know it ignores, with a warning. Pure.
 */

export const APPROVAL_MODES = ['auto', 'prompt', 'writes', 'approve'] as const;
export type ApprovalMode = (typeof APPROVAL_MODES)[number];

/** A setting as the file writes it: its value, where it is, and its text. */
export interface CodexSetting<T> {
  value: T;
  file: string;
  line: number;
  text: string;
}

export interface CodexServer {
  key: string;
  /** The server's own table or first key, for findings about the server. */
  at: CodexSetting<string>;
  enabled?: CodexSetting<boolean>;
  defaultMode?: CodexSetting<ApprovalMode>;
  /** The list, and each name in it with its own line. */
  enabledTools?: CodexSetting<CodexSetting<string>[]>;
  disabledTools?: CodexSetting<CodexSetting<string>[]>;
  /** `tools.<tool>` tables: the table, and its approval_mode when set. */
  tools: Map<string, { at: CodexSetting<string>; mode?: CodexSetting<ApprovalMode> }>;
  /** Keys Codex does not know (it ignores them), as dotted paths. */
  ignored: CodexSetting<string>[];
}

export interface CodexState {
  servers: Map<string, CodexServer>;
}

/**
 * The keys of an MCP server table Codex 0.171.0 knows: each was given a value of the wrong type
 * on the binary, which refused it by name, while any other key is reported as ignored.
 */
const SERVER_KEYS = new Set([
  'args',
  'auth',
  'bearer_token',
  'bearer_token_env_var',
  'command',
  'cwd',
  'default_tools_approval_mode',
  'disabled_tools',
  'enabled',
  'enabled_tools',
  'env',
  'env_http_headers',
  'env_vars',
  'environment_id',
  'http_headers',
  'http_headers_helper',
  'name',
  'oauth',
  'oauth_resource',
  'omit_tools_from',
  'required',
  'scopes',
  'startup_readiness',
  'startup_timeout_ms',
  'startup_timeout_sec',
  'supports_parallel_tool_calls',
  'tool_timeout_sec',
  'tools',
  'url',
]);

/** The server keys Codex starts: others it refuses ("Invalid MCP server name"). */
export const SERVER_KEY = /^[a-zA-Z0-9_:@/.-]+$/;

/** The largest file read: far above any real config, small enough to bound the work. */
const MAX_BYTES = 1024 * 1024;

type Table = Record<string, unknown>;
const isTable = (v: unknown): v is Table =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);

/** Where a path is written: its key, else the header of its table, else its nearest ancestor. */
function locate(doc: TomlDocument, path: TomlPath): { line: number; text: string } {
  for (let n = path.length; n > 0; n--) {
    const at = path.slice(0, n);
    const entry = doc.entries.get(pathKey(at));
    if (entry) return { line: entry.line, text: entry.text };
    const table = doc.tables.get(pathKey(at));
    if (table)
      return { line: table.loc.start.line, text: `[${doc.text.slice(...table.key.range)}]` };
    // A table made by dotted keys: the first key under it.
    for (const e of doc.entries.values())
      if (e.path.length > n && at.every((p, i) => e.path[i] === p))
        return { line: e.line, text: e.text };
  }
  return { line: 1, text: '' };
}

/** Reads one file into `state`, or throws AuditError where Codex would refuse to start. */
function readFile(file: ClientFile, state: CodexState): void {
  const bytes = Buffer.byteLength(file.text, 'utf8');
  if (bytes > MAX_BYTES)
    throw new AuditError(
      `${file.path} is ${bytes} bytes; the check reads Codex config files of up to ${MAX_BYTES} bytes.`,
      'A Codex config file is a few kilobytes: check that the path names the right file.',
    );
  const doc = parseToml(file.text, file.path);
  const setting = <T>(value: T, path: TomlPath): CodexSetting<T> => ({
    value,
    file: file.path,
    ...locate(doc, path),
  });
  const elementLine = (path: TomlPath, i: number): number | undefined => {
    const value = doc.entries.get(pathKey(path))?.node.value;
    return value?.type === 'TOMLArray' ? value.elements[i]?.loc.start.line : undefined;
  };
  const refuse = (path: TomlPath, want: string): never => {
    const { line } = locate(doc, path);
    throw new AuditError(
      `Codex refuses to start with ${file.path}: ${path.join('.')} (line ${line}) is not ${want}.`,
      'Fix that line: Codex stops with "Error loading config.toml" for every user who trusts the project.',
    );
  };
  const servers = doc.data.mcp_servers;
  if (servers === undefined) return;
  if (!isTable(servers)) refuse(['mcp_servers'], 'a table of servers');
  for (const [key, raw] of Object.entries(servers as Table)) {
    const base = ['mcp_servers', key];
    if (!isTable(raw)) refuse(base, 'a table');
    const server = state.servers.get(key) ?? {
      key,
      at: setting(key, base),
      tools: new Map(),
      ignored: [],
    };
    readServer(raw as Table, base, server, { setting, refuse, elementLine });
    state.servers.set(key, server);
  }
}

interface Reader {
  setting<T>(value: T, path: TomlPath): CodexSetting<T>;
  refuse(path: TomlPath, want: string): never;
  /** The line of element `i` of the array at `path`. */
  elementLine(path: TomlPath, i: number): number | undefined;
}

const MODES_WANTED = `one of ${APPROVAL_MODES.map((m) => `"${m}"`).join(', ')}`;

/** One server's settings, merged over what an earlier file set (the later file wins key by key). */
function readServer(raw: Table, base: TomlPath, server: CodexServer, r: Reader): void {
  const mode = (value: unknown, path: TomlPath): CodexSetting<ApprovalMode> =>
    typeof value === 'string' && (APPROVAL_MODES as readonly string[]).includes(value)
      ? r.setting(value as ApprovalMode, path)
      : r.refuse(path, MODES_WANTED);
  const names = (value: unknown, path: TomlPath): CodexSetting<CodexSetting<string>[]> => {
    if (!Array.isArray(value) || !value.every((v) => typeof v === 'string'))
      return r.refuse(path, 'a list of tool names');
    const list = r.setting([] as CodexSetting<string>[], path);
    // Each name with its own line, when the list spans several.
    value.forEach((name, i) =>
      list.value.push({ ...list, value: name, line: r.elementLine(path, i) ?? list.line }),
    );
    return list;
  };
  for (const [key, value] of Object.entries(raw)) {
    const path = [...base, key];
    if (key === 'enabled') {
      if (typeof value !== 'boolean') r.refuse(path, 'true or false');
      server.enabled = r.setting(value, path);
    } else if (key === 'default_tools_approval_mode') server.defaultMode = mode(value, path);
    else if (key === 'enabled_tools') server.enabledTools = names(value, path);
    else if (key === 'disabled_tools') server.disabledTools = names(value, path);
    else if (key === 'tools') {
      if (!isTable(value)) r.refuse(path, 'a table of tools');
      for (const [tool, config] of Object.entries(value)) {
        const toolPath = [...path, tool];
        if (!isTable(config)) r.refuse(toolPath, 'a table');
        const entry = server.tools.get(tool) ?? { at: r.setting(tool, toolPath) };
        for (const [name, v] of Object.entries(config))
          if (name === 'approval_mode') entry.mode = mode(v, [...toolPath, name]);
          else server.ignored.push(r.setting([...toolPath, name].join('.'), [...toolPath, name]));
        server.tools.set(tool, entry);
      }
    } else if (!SERVER_KEYS.has(key)) server.ignored.push(r.setting(path.join('.'), path));
  }
}

/** Reads the committed Codex config files, in the order Codex layers them (later wins). */
export function readCodex(files: ClientFile[]): CodexState {
  const state: CodexState = { servers: new Map() };
  for (const file of files) readFile(file, state);
  return state;
}

/** What `auto` does with a tool, from its declared hints, and why. */
export function autoDecision(declared: ClientTool['declared']): {
  decision: 'allow' | 'ask';
  why: string;
} {
  if (declared.readOnlyHint === true) return { decision: 'allow', why: 'readOnlyHint true' };
  if (declared.destructiveHint === true) return { decision: 'ask', why: 'destructiveHint true' };
  if (declared.destructiveHint === false && declared.openWorldHint === false)
    return { decision: 'allow', why: 'destructiveHint and openWorldHint declared false' };
  const open = (['destructiveHint', 'openWorldHint'] as const)
    .filter((h) => declared[h] !== false)
    .map((h) => (declared[h] === undefined ? `${h} not declared` : `${h} true`));
  return { decision: 'ask', why: `readOnlyHint not true and ${open.join(', ')}` };
}

const ruleOf = (s: CodexSetting<unknown>) => ({ rule: s.text, file: s.file, line: s.line });

/** The decision a mode gives a tool (`setting` is where the mode is set; none for the default). */
function byMode(
  mode: ApprovalMode,
  tool: ClientTool,
  setting: CodexSetting<ApprovalMode> | undefined,
): ClientVerdict {
  const where = setting ? ruleOf(setting) : {};
  if (mode === 'approve') return { decision: 'allow', ...where };
  if (mode === 'prompt') return { decision: 'ask', ...where };
  if (mode === 'writes') {
    const readOnly = tool.declared.readOnlyHint === true;
    return {
      decision: readOnly ? 'allow' : 'ask',
      ...where,
      byClient: `writes: readOnlyHint ${readOnly ? 'true' : 'not declared true'}`,
    };
  }
  const auto = autoDecision(tool.declared);
  const how = setting ? 'auto' : 'auto (Codex’s default: no approval_mode set)';
  return { decision: auto.decision, ...where, byClient: `${how}: ${auto.why}` };
}

/**
 * The server a recorded tool belongs to: its key, else the one key the class list's normalised
 * name stands for (it writes `my.notes` as my_notes).
 */
export function serverOf(state: CodexState, name: string): CodexServer | undefined {
  const exact = state.servers.get(name);
  if (exact) return exact;
  const keyed = [...state.servers.values()].filter((s) => normalizeServerName(s.key) === name);
  return keyed.length === 1 ? keyed[0] : undefined;
}

/** The effective decision for one tool, exactly as Codex 0.171.0 takes it. */
export function decideCodex(state: CodexState, tool: ClientTool): ClientVerdict {
  const server = serverOf(state, tool.server);
  if (!server) return byMode('auto', tool, undefined);
  if (!SERVER_KEY.test(server.key))
    return {
      decision: 'hidden',
      ...ruleOf(server.at),
      byClient: `Codex starts no server whose key has characters outside ${SERVER_KEY.source}`,
    };
  if (server.enabled?.value === false) return { decision: 'hidden', ...ruleOf(server.enabled) };
  const disabled = server.disabledTools?.value.find((n) => n.value === tool.tool);
  if (disabled) return { decision: 'hidden', ...ruleOf(disabled) };
  if (server.enabledTools && !server.enabledTools.value.some((n) => n.value === tool.tool))
    return { decision: 'hidden', ...ruleOf(server.enabledTools) };
  const setting = server.tools.get(tool.tool)?.mode ?? server.defaultMode;
  return byMode(setting?.value ?? 'auto', tool, setting);
}
