import { AuditError } from '../../errors.js';
import type { ClientFile, ClientTool, ClientVerdict } from '../client.js';
import { parseJsonc } from '../jsonc.js';

/*
 * What opencode takes from a committed opencode.json / opencode.jsonc for an MCP server's tools,
 * each fact observed on the binary (1.18.33, test/oracle/opencode.test.ts): a tool is named
 * <server>_<tool>, every character but A-Z a-z 0-9 _ - written as _; `permission` maps globs
 * (`*` any run, `?` one character, matched against the whole name, case counting) to "allow",
 * "ask" or "deny", and the last key that matches decides; with no key matching, or no
 * `permission` at all, the tool runs unasked. "deny" takes the tool off the model's list; an
 * "ask" in `opencode run` is refused ("The user rejected permission"). A value that is not one of
 * the three stops opencode from starting ("Configuration is invalid"). The files are merged as
 * opencode merges them: a key already set keeps its place, a new key goes last. The older `tools`
 * map (`"<glob>": false` hides, true allows) is weighed before every permission key. Pure.
 */

export const ACTIONS = ['allow', 'ask', 'deny'] as const;
export type Action = (typeof ACTIONS)[number];

/** One glob of `permission`, in the order opencode weighs them (the last match wins). */
export interface OpencodeRule {
  /** The key: a glob over tool names. */
  key: string;
  /** The pattern over the call's arguments (`*` for a string value); MCP calls ask for `*`. */
  pattern: string;
  action: Action;
  file: string;
  line: number;
  /** The rule as written, for findings. */
  text: string;
}

export interface OpencodeServer {
  key: string;
  file: string;
  line: number;
  /** `enabled: false` starts no server (its tools are never offered). */
  disabledAt?: { file: string; line: number };
}

/** An agent's own permission or tools, which the check does not judge (rule-unjudged). */
export interface AgentRules {
  file: string;
  line: number;
  /** The setting as written, for findings. */
  text: string;
}

export interface OpencodeState {
  rules: OpencodeRule[];
  /** Every agent's own permission or tools: each overrides the global ones for that agent. */
  agents: AgentRules[];
  servers: Map<string, OpencodeServer>;
  /** The files read, in the order opencode merges them. */
  files: string[];
}

/** The largest file read: far above any real config, small enough to bound the work. */
const MAX_BYTES = 1024 * 1024;

/** A name as opencode shows it to the model: every character but A-Z a-z 0-9 _ - becomes _. */
export const sanitize = (name: string): string => name.replace(/[^A-Za-z0-9_-]/g, '_');

/** Whether `name` matches the glob `pattern` as opencode matches them (whole name, case counts). */
export function globMatch(name: string, pattern: string): boolean {
  let source = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  // A trailing " *" also matches the bare word before it (for commands: "git *" matches "git").
  if (source.endsWith(' .*')) source = `${source.slice(0, -3)}( .*)?`;
  return new RegExp(`^${source}$`, 's').test(name);
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Where a setting came from: the file and line of its value. */
interface Origin {
  file: string;
  line: number;
  text: string;
}

/**
 * `next` merged over `base` as opencode merges config files: objects key by key, a key already
 * there keeping its place; anything else replaced. `origins` follows the same paths.
 */
function mergeInto(base: Json, next: Json): Json {
  const out: Json = { ...base };
  for (const [key, value] of Object.entries(next))
    out[key] = isObject(value) && isObject(out[key]) ? mergeInto(out[key], value) : value;
  return out;
}

const actionWanted = `one of ${ACTIONS.map((a) => `"${a}"`).join(', ')}`;

/** Reads one file's permission and mcp settings, throwing where opencode refuses to start. */
function readFile(file: ClientFile, origins: Map<string, Origin>, agents: AgentRules[]): Json {
  const bytes = Buffer.byteLength(file.text, 'utf8');
  if (bytes > MAX_BYTES)
    throw new AuditError(
      `${file.path} is ${bytes} bytes; the check reads opencode config files of up to ${MAX_BYTES} bytes.`,
      'An opencode config file is a few kilobytes: check that the path names the right file.',
    );
  const fix = 'Fix that line: opencode refuses to start with a config file that does not parse.';
  const { data, lineOf } = parseJsonc(file.text, file.path, fix);
  const refuse = (path: string[], want: string): never => {
    throw new AuditError(
      `opencode refuses to start with ${file.path}: ${path.join('.')} (line ${lineOf(...path)}) is not ${want}.`,
      'Fix that line: opencode stops with "Configuration is invalid" for every user in the repository.',
    );
  };
  if (!isObject(data)) refuse([], 'an object');
  const root = data as Json;
  // `at` is where the value is written, when not at `path` (a string permission is every tool's).
  const note = (path: string[], text: string, at = path) =>
    origins.set(JSON.stringify(path), { file: file.path, line: lineOf(...at), text });
  const permission = root.permission;
  if (typeof permission === 'string') {
    if (!(ACTIONS as readonly string[]).includes(permission)) refuse(['permission'], actionWanted);
    note(['permission', '*', '*'], `"permission": ${JSON.stringify(permission)}`, ['permission']);
  } else if (isObject(permission)) {
    for (const [key, value] of Object.entries(permission)) {
      const entries = typeof value === 'string' ? [['*', value] as const] : undefined;
      if (!entries && !isObject(value))
        refuse(['permission', key], `${actionWanted}, or an object of patterns`);
      for (const [pattern, action] of entries ?? Object.entries(value as Json)) {
        const path = entries ? ['permission', key] : ['permission', key, pattern];
        if (typeof action !== 'string' || !(ACTIONS as readonly string[]).includes(action))
          refuse(path, actionWanted);
        const text = entries
          ? `"${key}": ${JSON.stringify(action)}`
          : `"${key}": { "${pattern}": ${JSON.stringify(action)} }`;
        note(entries ? ['permission', key, '*'] : path, text, path);
      }
    }
  } else if (permission !== undefined) refuse(['permission'], `${actionWanted}, or an object`);
  // The older `tools` map: true or false a glob, weighed before every permission key (observed).
  const tools = root.tools;
  if (tools !== undefined && !isObject(tools)) refuse(['tools'], 'an object of true or false');
  for (const [key, on] of Object.entries((tools ?? {}) as Json)) {
    if (typeof on !== 'boolean') refuse(['tools', key], 'true or false');
    note(['tools', key, '*'], `"tools": { "${key}": ${String(on)} }`, ['tools', key]);
  }
  // `mode` is the older name of `agent`, still read.
  for (const section of ['agent', 'mode']) {
    const named = root[section];
    for (const [name, settings] of Object.entries(isObject(named) ? named : {}))
      for (const key of ['permission', 'tools'])
        if (isObject(settings) && settings[key] !== undefined)
          agents.push({
            file: file.path,
            line: lineOf(section, name, key),
            text: `"${section}": { "${name}": { "${key}": ... } }`,
          });
  }
  const mcp = root.mcp;
  if (mcp !== undefined && !isObject(mcp)) refuse(['mcp'], 'an object of servers');
  for (const [key, server] of Object.entries((mcp ?? {}) as Json)) {
    if (!isObject(server)) refuse(['mcp', key], 'an object');
    note(['mcp', key], `"${key}"`);
    if ((server as Json).enabled !== undefined) note(['mcp', key, 'enabled'], '"enabled"');
  }
  return {
    ...(permission === undefined ? {} : { permission }),
    ...(tools ? { tools } : {}),
    ...(mcp ? { mcp } : {}),
  };
}

/** The rules of the merged `tools` (false is deny, true allow), as opencode weighs them. */
function toolRules(tools: unknown, origins: Map<string, Origin>): OpencodeRule[] {
  return Object.entries((tools ?? {}) as Json).map(([key, on]) => ({
    key,
    pattern: '*',
    action: on === true ? 'allow' : 'deny',
    ...(origins.get(JSON.stringify(['tools', key, '*'])) as Origin),
  }));
}

/** The rules of the merged `permission`, in the order opencode weighs them. */
function rulesOf(permission: unknown, origins: Map<string, Origin>): OpencodeRule[] {
  // A string is every tool's action, as a "*" key is.
  const map = typeof permission === 'string' ? { '*': permission } : (permission as Json);
  const rules: OpencodeRule[] = [];
  for (const [key, value] of Object.entries(map ?? {})) {
    const patterns = typeof value === 'string' ? { '*': value } : (value as Json);
    for (const [pattern, action] of Object.entries(patterns)) {
      const origin = origins.get(JSON.stringify(['permission', key, pattern])) as Origin;
      rules.push({ key, pattern, action: action as Action, ...origin });
    }
  }
  return rules;
}

/** The folders of opencode's markdown agents (`mode` their older name), each .md file an agent. */
export const AGENT_DIRS = [
  '.opencode/agent',
  '.opencode/agents',
  '.opencode/mode',
  '.opencode/modes',
] as const;

/** Whether a file (as reports name it: from the repository's root in the action) is a markdown agent. */
const isMarkdownAgent = (path: string): boolean =>
  /(?:^|\/)\.opencode\/(?:agents?|modes?)\/.+\.md$/.test(path);

/**
 * A markdown agent's own permission or tools, from its front matter: read as text, never parsed,
 * so a form the check would misread still counts (a key quoted or indented, a flow map).
 */
function markdownAgent(file: ClientFile): AgentRules[] {
  const lines = file.text.replace(/^\ufeff/, '').split(/\r?\n/);
  if (lines[0]?.trim() !== '---') return [];
  const found: AgentRules[] = [];
  for (let i = 1; i < lines.length && lines[i]?.trim() !== '---'; i += 1) {
    const key = /^\s*(?:\{.*)?["']?(permission|tools)["']?\s*:/.exec(lines[i] ?? '')?.[1];
    if (key) found.push({ file: file.path, line: i + 1, text: `${key}:` });
  }
  return found;
}

/** Reads the committed opencode files, in the order opencode merges them (later wins). */
export function readOpencode(files: ClientFile[]): OpencodeState {
  const origins = new Map<string, Origin>();
  const agents: AgentRules[] = [];
  let merged: Json = {};
  for (const file of files) {
    if (isMarkdownAgent(file.path)) {
      agents.push(...markdownAgent(file));
      continue;
    }
    const read = readFile(file, origins, agents);
    merged = mergeInto(merged, read);
  }
  const servers = new Map<string, OpencodeServer>();
  for (const [key, server] of Object.entries((merged.mcp ?? {}) as Json)) {
    const at = origins.get(JSON.stringify(['mcp', key])) as Origin;
    const off = origins.get(JSON.stringify(['mcp', key, 'enabled']));
    servers.set(key, {
      key,
      file: at.file,
      line: at.line,
      ...((server as Json).enabled === false && off ? { disabledAt: off } : {}),
    });
  }
  const rules = [...toolRules(merged.tools, origins), ...rulesOf(merged.permission, origins)];
  return { rules, agents, servers, files: files.map((f) => f.path) };
}

/** The tool's name as opencode offers it and matches it in `permission`. */
export const opencodeName = (server: string, tool: string): string =>
  `${sanitize(server)}_${sanitize(tool)}`;

/** The server of a recorded tool: its key, else the one key that sanitises to the same name. */
export function serverOf(state: OpencodeState, name: string): OpencodeServer | undefined {
  const exact = state.servers.get(name);
  if (exact) return exact;
  const same = [...state.servers.values()].filter((s) => sanitize(s.key) === sanitize(name));
  return same.length === 1 ? same[0] : undefined;
}

/** The rule that decides a call of `name` (the last that matches), if any. */
export function decidingRule(rules: OpencodeRule[], name: string): OpencodeRule | undefined {
  return rules.findLast((r) => globMatch(name, r.key) && globMatch('*', r.pattern));
}

/** The effective decision for one tool, exactly as opencode 1.18.33 takes it. */
export function decideOpencode(state: OpencodeState, tool: ClientTool): ClientVerdict {
  const server = serverOf(state, tool.server);
  if (server?.disabledAt)
    return {
      decision: 'hidden',
      rule: `"${server.key}": { "enabled": false }`,
      ...server.disabledAt,
    };
  const rule = decidingRule(state.rules, opencodeName(tool.server, tool.tool));
  // No rule: the default allow, said at the server's entry when the file configures it.
  if (!rule)
    return {
      decision: 'allow',
      ...(server ? { file: server.file, line: server.line } : {}),
      byClient: 'opencode’s default: no permission rule, runs unasked',
    };
  return { decision: rule.action, rule: rule.text, file: rule.file, line: rule.line };
}
