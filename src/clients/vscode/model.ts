import { isObject } from '../../core/tools.js';
import type { ClientFile, ClientTool, ClientVerdict } from '../client.js';
import { readJsoncObject, readServers, type ConfiguredServer } from '../jsonc.js';

/*
 * What VS Code takes from a repository for an MCP server's tools, from its documentation and the
 * settings' registrations in its source (not run here: there is no oracle, see docs/vscode-cursor.md):
 * - servers are the keys of `servers` in .vscode/mcp.json (and of the user's own mcp.json);
 * - a tool with readOnlyHint: true runs without a confirmation; every other MCP tool asks, and the
 *   user may then allow it for the session, the workspace or always (kept in the user's state,
 *   never in a committed file); a tool with openWorldHint: true has its results shown for review
 *   too;
 * - `chat.tools.eligibleForAutoApproval` (settings, window scope, so a workspace's
 *   .vscode/settings.json sets it unless an organization policy does) maps a tool's reference
 *   name to false: that tool always asks and is never offered for auto-approval, a read-only
 *   one too; true, or no entry, changes nothing;
 * - `chat.tools.global.autoApprove` is machine-scoped (APPLICATION_MACHINE): only a user's own
 *   settings set it, and a workspace's value is ignored.
 * A tool's reference name is its MCP name; the tools picker and prompt files name it
 * <server>/<tool>, and either form is read as an eligibleForAutoApproval key. Both files are
 * JSON with comments. Pure.
 */

export const VSCODE_MCP = '.vscode/mcp.json';
export const VSCODE_SETTINGS = '.vscode/settings.json';
export const ELIGIBLE = 'chat.tools.eligibleForAutoApproval';
/** Settings VS Code reads only from the user's own settings (machine scope). */
export const MACHINE_SETTINGS = ['chat.tools.global.autoApprove'] as const;

export type VscodeServer = ConfiguredServer;

/** One entry of chat.tools.eligibleForAutoApproval. */
export interface VscodeEligible {
  key: string;
  value: unknown;
  file: string;
  line: number;
}

/** A machine-scoped setting written in the workspace's settings, which VS Code ignores. */
export interface VscodeIgnored {
  key: string;
  value: unknown;
  file: string;
  line: number;
}

export interface VscodeState {
  servers: Map<string, VscodeServer>;
  eligible: VscodeEligible[];
  ignored: VscodeIgnored[];
  files: string[];
}

const FIX = 'Fix that line: VS Code cannot use a file it cannot parse.';

/** The tool as VS Code's tools picker and prompt files name it. */
export const vscodeName = (server: string, tool: string): string => `${server}/${tool}`;

/** The keys an eligibleForAutoApproval entry may name the tool by: its own name, then server/tool. */
export const eligibleKeys = (tool: Pick<ClientTool, 'server' | 'tool'>): string[] => [
  tool.tool,
  vscodeName(tool.server, tool.tool),
];

function readSettings(file: ClientFile, state: VscodeState): void {
  const { data, lineOf, refuse } = readJsoncObject(file, 'VS Code', FIX);
  const eligible = data[ELIGIBLE];
  if (eligible !== undefined && !isObject(eligible))
    throw refuse([ELIGIBLE], 'an object of tool names');
  for (const [key, value] of Object.entries(eligible ?? {}))
    state.eligible.push({ key, value, file: file.path, line: lineOf(ELIGIBLE, key) });
  for (const key of MACHINE_SETTINGS)
    if (key in data)
      state.ignored.push({ key, value: data[key], file: file.path, line: lineOf(key) });
}

/** Reads the committed .vscode/mcp.json and .vscode/settings.json that exist. */
export function readVscode(files: ClientFile[]): VscodeState {
  const state: VscodeState = {
    servers: new Map(),
    eligible: [],
    ignored: [],
    files: files.map((f) => f.path),
  };
  for (const file of files)
    if (file.path.endsWith('settings.json')) readSettings(file, state);
    else readServers(file, 'VS Code', 'servers', FIX, state.servers);
  return state;
}

/** The eligibleForAutoApproval entry that names the tool, by its own name first. */
export function eligibleEntry(state: VscodeState, tool: ClientTool): VscodeEligible | undefined {
  for (const key of eligibleKeys(tool)) {
    const hit = state.eligible.find((e) => e.key === key);
    if (hit) return hit;
  }
  return undefined;
}

/** The effective decision for one tool, as VS Code's documentation describes it. */
export function decideVscode(state: VscodeState, tool: ClientTool): ClientVerdict {
  const server = state.servers.get(tool.server);
  const at = server ? { file: server.file, line: server.line } : {};
  const results =
    tool.declared.openWorldHint === true
      ? '; with openWorldHint: true its results are shown for review too'
      : '';
  const entry = eligibleEntry(state, tool);
  if (entry?.value === false)
    return {
      decision: 'ask',
      rule: `"${entry.key}": false`,
      file: entry.file,
      line: entry.line,
      byClient: `${ELIGIBLE}: VS Code always asks and offers no auto-approval${results}`,
    };
  if (tool.declared.readOnlyHint === true)
    return {
      decision: 'allow',
      ...at,
      byClient: `VS Code runs a tool with readOnlyHint: true without asking${results}`,
    };
  return {
    decision: 'ask',
    ...at,
    byClient: `VS Code asks before an MCP tool without readOnlyHint: true, until a user allows it for the session, the workspace or always${results}`,
  };
}
