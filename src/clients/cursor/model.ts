import type { ClientFile, ClientTool, ClientVerdict } from '../client.js';
import { readJsoncObject, readServers, type ConfiguredServer } from '../jsonc.js';

/*
 * What Cursor takes from a repository for an MCP server's tools, from its documentation only
 * (Cursor does not run here: there is no oracle, see docs/vscode-cursor.md):
 * - servers are the keys of `mcpServers` in .cursor/mcp.json (and the user's ~/.cursor/mcp.json);
 * - permissions.json is read from the user's ~/.cursor/ and the workspace's .cursor/ (the
 *   permissions.json reference), the `mcpAllowlist` arrays of both concatenated; an entry is
 *   server:tool, either side `*` for any run of characters; a non-string entry is dropped;
 * - a tool an entry matches runs without asking when auto-run uses the allowlist; any other MCP
 *   tool asks. Cursor decides nothing from a tool's annotations.
 * Both files are JSON with comments. Pure.
 */

export const CURSOR_MCP = '.cursor/mcp.json';
export const CURSOR_PERMISSIONS = '.cursor/permissions.json';
export const ALLOWLIST = 'mcpAllowlist';

export type CursorServer = ConfiguredServer;

/** One entry of mcpAllowlist as written (a non-string one is kept to be reported). */
export interface CursorEntry {
  entry: unknown;
  /** Index in its file's array. */
  index: number;
  file: string;
  line: number;
}

export interface CursorState {
  servers: Map<string, CursorServer>;
  allowlist: CursorEntry[];
  /** The files that set mcpAllowlist (an empty list too). */
  listing: string[];
  files: string[];
}

const FIX = 'Fix that line: Cursor cannot use a file it cannot parse.';

/** The tool as permissions.json names it. */
export const cursorName = (server: string, tool: string): string => `${server}:${tool}`;

/** Whether `name` matches `pattern`, where `*` is any run of characters (the whole name). */
function globMatch(name: string, pattern: string): boolean {
  const source = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${source}$`, 's').test(name);
}

/** The entry's server and tool patterns, or undefined when it is not server:tool. */
export function entryParts(entry: string): { server: string; tool: string } | undefined {
  // A tool name has no colon (the MCP name rules), so the last one splits.
  const colon = entry.lastIndexOf(':');
  if (colon <= 0 || colon === entry.length - 1) return undefined;
  return { server: entry.slice(0, colon), tool: entry.slice(colon + 1) };
}

/** Whether an allowlist entry lets the tool of `server` run. */
export function entryMatches(entry: unknown, server: string, tool: string): boolean {
  if (typeof entry !== 'string') return false;
  const parts = entryParts(entry);
  return !!parts && globMatch(server, parts.server) && globMatch(tool, parts.tool);
}

function readPermissions(file: ClientFile, state: CursorState): void {
  const { data, lineOf, refuse } = readJsoncObject(file, 'Cursor', FIX);
  const list = data[ALLOWLIST];
  if (list === undefined) return;
  if (!Array.isArray(list)) throw refuse([ALLOWLIST], 'a list of server:tool entries');
  state.listing.push(file.path);
  list.forEach((entry: unknown, index) =>
    state.allowlist.push({ entry, index, file: file.path, line: lineOf(ALLOWLIST, index) }),
  );
}

/** Reads the committed .cursor/mcp.json and .cursor/permissions.json that exist. */
export function readCursor(files: ClientFile[]): CursorState {
  const state: CursorState = {
    servers: new Map(),
    allowlist: [],
    listing: [],
    files: files.map((f) => f.path),
  };
  for (const file of files)
    if (file.path.endsWith('permissions.json')) readPermissions(file, state);
    else readServers(file, 'Cursor', 'mcpServers', FIX, state.servers);
  return state;
}

/** The first allowlist entry that lets the tool run, if any. */
export function allowingEntry(state: CursorState, tool: ClientTool): CursorEntry | undefined {
  return state.allowlist.find((e) => entryMatches(e.entry, tool.server, tool.tool));
}

/** The effective decision for one tool, as Cursor's documentation describes it. */
export function decideCursor(state: CursorState, tool: ClientTool): ClientVerdict {
  const entry = allowingEntry(state, tool);
  if (entry)
    return {
      decision: 'allow',
      rule: entry.entry as string,
      file: entry.file,
      line: entry.line,
      byClient: `in ${ALLOWLIST}: Cursor runs it without asking when auto-run uses the allowlist`,
    };
  const server = state.servers.get(tool.server);
  return {
    decision: 'ask',
    ...(server ? { file: server.file, line: server.line } : {}),
    byClient: `no ${ALLOWLIST} entry: Cursor asks before each call`,
  };
}
