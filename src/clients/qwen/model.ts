import { parseJsonText } from '../../core/jsontext.js';
import { AuditError } from '../../errors.js';
import type { ClientFile, ClientTool, ClientVerdict } from '../client.js';

/*
 * What Qwen Code takes from a committed .qwen/settings.json for an MCP server's tools, each fact
 * observed on the binary (@qwen-code/qwen-code 0.24.4 on Node 24, test/oracle/qwen.test.ts):
 * - a tool is named mcp__<server>__<tool>; a name that is not letters, digits, _ and - (a key
 *   with a dot) or longer than 63 characters is written with _ and a hash of the whole name
 *   (`my.notes` → mcp__my_notes__delete_note_1dksfmm);
 * - permissions.allow, .ask and .deny of every settings file are joined; deny beats ask beats
 *   allow, whatever the file or the order. A rule matches the tool's name exactly, the name as
 *   written before it is rewritten (mcp__my.notes__delete_note), the server (mcp__<server>, the
 *   server's characters compared after the rewrite) or a prefix ending in * (compared after the
 *   rewrite); `*` alone matches no MCP tool, and a rule with (...) never matches one;
 * - with no rule, a server with `trust: true` runs its tools; else the default approval mode
 *   (auto) hands the call to a model classifier, which asks when it cannot tell: headless
 *   (`qwen -p`) refuses it ("non-interactive mode cannot prompt");
 * - tools.approvalMode "yolo" (a workspace file may set it) runs every tool no deny rule refuses,
 *   those with an ask rule too; only deny holds against it, as against --yolo;
 * - a server the workspace file defines waits for the user's approval (/mcp) before it starts.
 * The file is JSON with comments. Pure.
 */

export const QWEN_SETTINGS = '.qwen/settings.json';
export const LISTS = ['deny', 'ask', 'allow'] as const;
export type QwenList = (typeof LISTS)[number];

export interface QwenRule {
  list: QwenList;
  rule: string;
  file: string;
  line: number;
}

export interface QwenServer {
  key: string;
  file: string;
  line: number;
  /** The line of `trust: true`. */
  trust?: number;
}

export interface QwenState {
  rules: QwenRule[];
  servers: Map<string, QwenServer>;
  /** tools.approvalMode as written, with where. */
  approvalMode?: { value: string; file: string; line: number };
  files: string[];
}

const LONGEST = 63;
const SAFE = /^[A-Za-z][A-Za-z0-9_-]*$/;

/** Every character but letters, digits, _ and - as _, and a leading non-letter behind `tool_`. */
export function sanitize(name: string): string {
  const out = name.replace(/[^A-Za-z0-9_-]/g, '_');
  return /^[A-Za-z]/.test(out) ? out : `tool_${out}`;
}

/** A 32-bit FNV-1a hash of the name's UTF-16 units, in base 36, seven digits at least. */
function hashOf(name: string): string {
  let hash = 0x811c9dc5;
  for (const unit of name.split('').map((c) => c.charCodeAt(0)))
    hash = Math.imul(hash ^ unit, 0x01000193);
  return (hash >>> 0).toString(36).padStart(7, '0');
}

/** A name as Qwen Code gives it to the model: kept when safe, else rewritten with a hash. */
export function normalize(name: string): string {
  if (name.length <= LONGEST && SAFE.test(name)) return name;
  const suffix = `_${hashOf(name)}`;
  return sanitize(name).slice(0, LONGEST - suffix.length) + suffix;
}

/** The name a rule writes for a tool (and the name before any rewrite). */
export const writtenName = (server: string, tool: string): string => `mcp__${server}__${tool}`;

/** The tool's name as Qwen Code offers it and reports it. */
export const qwenName = (server: string, tool: string): string =>
  normalize(writtenName(server, tool));

/** A rule's tool part, or undefined when the rule cannot match an MCP tool (a (...) specifier). */
function toolPart(rule: string): string | undefined {
  const text = rule.trim();
  const open = text.indexOf('(');
  if (open < 0) return text;
  // Qwen Code matches an MCP rule only without a specifier; an unclosed one is malformed.
  return text.endsWith(')') && open === text.length - 2 ? text.slice(0, open).trim() : undefined;
}

/** Whether `rule` (a rule's text) matches the tool, as Qwen Code 0.24.4 matches MCP rules. */
export function ruleMatches(rule: string, server: string, tool: string): boolean {
  const pattern = toolPart(rule);
  if (pattern === undefined) return false;
  const name = qwenName(server, tool);
  if (pattern === name) return true;
  // A prefix is compared rewritten: `*` alone is `tool_`, which no mcp__ name starts with.
  if (pattern.endsWith('*')) return sanitize(name).startsWith(sanitize(pattern.slice(0, -1)));
  const parts = pattern.split('__');
  if (parts.length >= 3) return normalize(pattern) === name || pattern === legacyName(server, tool);
  const own = name.split('__');
  return (
    parts.length === 2 &&
    parts[0] === own[0] &&
    sanitize(parts[1] as string) === sanitize(own[1] as string)
  );
}

/** The older spelling Qwen Code still accepts in rules: dots kept (names up to 63 characters). */
function legacyName(server: string, tool: string): string {
  const name = writtenName(server, tool).replace(/[^A-Za-z0-9_.-]/g, '_');
  return name.length > LONGEST ? `${name.slice(0, 28)}___${name.slice(-32)}` : name;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const FIX =
  'Fix that line by hand: Qwen Code refuses to start with a settings file it cannot parse, or misreads a setting of the wrong type.';

/** Reads one settings file's rules, servers and approval mode into `state`. */
function readFile(file: ClientFile, state: QwenState): void {
  const { data, lineOf } = parseJsonText(
    file.text,
    `The Qwen Code settings file ${file.path}`,
    FIX,
    {
      comments: true,
      lines: true,
    },
  );
  const bad = (where: (string | number)[], what: string) =>
    new AuditError(
      `The Qwen Code settings file ${file.path} has ${where.join('.') || 'a top level'} that is ${what} (line ${lineOf(...where)}).`,
      FIX,
    );
  if (!isObject(data)) throw bad([], 'not an object');
  const permissions = data.permissions;
  if (permissions !== undefined && !isObject(permissions))
    throw bad(['permissions'], 'not an object');
  for (const list of LISTS) {
    const entries = (permissions ?? {})[list];
    if (entries === undefined) continue;
    if (!Array.isArray(entries) || entries.some((e) => typeof e !== 'string'))
      throw bad(['permissions', list], 'not a list of strings');
    (entries as string[]).forEach((rule, i) => {
      if (rule.trim())
        state.rules.push({ list, rule, file: file.path, line: lineOf('permissions', list, i) });
    });
  }
  const tools = data.tools;
  if (isObject(tools) && typeof tools.approvalMode === 'string')
    state.approvalMode = {
      value: tools.approvalMode,
      file: file.path,
      line: lineOf('tools', 'approvalMode'),
    };
  const servers = data.mcpServers;
  if (servers !== undefined && !isObject(servers)) throw bad(['mcpServers'], 'not an object');
  for (const [key, entry] of Object.entries(servers ?? {})) {
    const trusted = isObject(entry) && entry.trust === true;
    state.servers.set(key, {
      key,
      file: file.path,
      line: lineOf('mcpServers', key),
      ...(trusted ? { trust: lineOf('mcpServers', key, 'trust') } : {}),
    });
  }
}

/** Reads the committed Qwen Code settings files (the workspace's .qwen/settings.json). */
export function readQwen(files: ClientFile[]): QwenState {
  const state: QwenState = { rules: [], servers: new Map(), files: files.map((f) => f.path) };
  for (const file of files) readFile(file, state);
  return state;
}

/** The rule that decides the tool: the first deny that matches, else ask, else allow. */
export function decidingRule(state: QwenState, tool: ClientTool): QwenRule | undefined {
  for (const list of LISTS) {
    const hit = state.rules.find(
      (r) => r.list === list && ruleMatches(r.rule, tool.server, tool.tool),
    );
    if (hit) return hit;
  }
  return undefined;
}

/** The effective decision for one tool, exactly as Qwen Code 0.24.4 takes it headless. */
export function decideQwen(state: QwenState, tool: ClientTool): ClientVerdict {
  const rule = decidingRule(state, tool);
  const at = (r: QwenRule) => ({ rule: r.rule, file: r.file, line: r.line });
  if (rule?.list === 'deny') return { decision: 'deny', ...at(rule) };
  const mode = state.approvalMode;
  if (mode?.value === 'yolo')
    return {
      decision: 'allow',
      rule: '"approvalMode": "yolo"',
      file: mode.file,
      line: mode.line,
      byClient: 'yolo runs every tool no deny rule refuses, one with an ask rule too',
    };
  if (rule) return { decision: rule.list, ...at(rule) };
  const server = state.servers.get(tool.server);
  if (server?.trust !== undefined)
    return {
      decision: 'allow',
      rule: '"trust": true',
      file: server.file,
      line: server.trust,
      byClient: 'the server is trusted: its tools run unasked once the user approves the server',
    };
  return {
    decision: 'ask',
    byClient:
      'no rule: Qwen Code’s default auto mode leaves the call to a model classifier, which may run it; headless it is refused',
  };
}
