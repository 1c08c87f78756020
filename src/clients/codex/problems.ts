import { normalizeServerName } from '../../core/classlist.js';
import type { ClientProblem, ClientTool } from '../client.js';
import { SERVER_KEY, type CodexServer, type CodexSetting, type CodexState } from './model.js';

/*
 * Findings about the settings themselves: keys Codex ignores (it warns "unrecognized
 * configuration setting" and goes on), a server key it refuses, and settings that name a server
 * or tool the class list does not record. Pure.
 */

const at = (s: CodexSetting<unknown>) => `${s.file} line ${s.line}`;

/** What an ignored key was probably meant to be. */
const MEANT: Record<string, string> = {
  approval_mode:
    'default_tools_approval_mode (or approval_mode under [mcp_servers.<key>.tools.<tool>])',
  default_tools_enabled: 'enabled_tools or disabled_tools',
  disabled: 'enabled = false',
  enabled: 'disabled_tools = ["<tool>"] on the server',
  trust: 'default_tools_approval_mode',
};

function ignoredProblems(server: CodexServer): ClientProblem[] {
  const found: ClientProblem[] = server.ignored.map((s) => {
    const name = s.value.split('.').at(-1) ?? s.value;
    const inTool = s.value.split('.').length > 3 && s.value.includes('.tools.');
    const meant = MEANT[name];
    return {
      kind: 'rule-ignored',
      rule: s.value,
      why: `Codex has no such setting for ${inTool ? 'an MCP tool (it reads approval_mode there)' : 'an MCP server'}`,
      fix: meant
        ? `Probably meant ${meant}: write that instead, or remove it.`
        : 'Fix the name, or remove it.',
      file: s.file,
      line: s.line,
    };
  });
  if (!SERVER_KEY.test(server.key))
    found.push({
      kind: 'rule-ignored',
      rule: `server "${server.key}"`,
      why: `a key must match ${SERVER_KEY.source}, so Codex starts no such server and none of its settings apply`,
      fix: 'Rename the server with letters, digits and _ : @ / . - only.',
      file: server.at.file,
      line: server.at.line,
    });
  return found;
}

/** The settings of a server that decide tools, with what each names. */
function decidingSettings(
  server: CodexServer,
): { setting: CodexSetting<unknown>; tool?: string }[] {
  const list: { setting: CodexSetting<unknown>; tool?: string }[] = [];
  if (server.defaultMode) list.push({ setting: server.defaultMode });
  for (const names of [server.enabledTools, server.disabledTools])
    if (names) {
      if (!names.value.length) list.push({ setting: names });
      for (const n of names.value) list.push({ setting: n, tool: n.value });
    }
  for (const [tool, entry] of server.tools) list.push({ setting: entry.mode ?? entry.at, tool });
  return list;
}

/** Settings that name a server or tool the class list does not record. */
function staleProblems(server: CodexServer, tools: ClientTool[]): ClientProblem[] {
  const recorded = recordedOf(server, tools);
  const found: ClientProblem[] = [];
  for (const { setting, tool } of decidingSettings(server)) {
    const what = !recorded.size
      ? `server "${server.key}", which the class list does not record`
      : tool !== undefined && !recorded.has(tool)
        ? `tool "${tool}", which the class list does not record for server "${server.key}"`
        : undefined;
    if (what)
      found.push({
        kind: 'rule-stale',
        rule: setting.text,
        why: what,
        fix: 'A typo or a removed tool: fix the name, or remove the setting.',
        file: setting.file,
        line: setting.line,
      });
  }
  return found;
}

/** The setting that hides a tool from the model, if any (as decideCodex reads them). */
function hiding(server: CodexServer, tool: string): CodexSetting<unknown> | undefined {
  if (server.enabled?.value === false) return server.enabled;
  const disabled = server.disabledTools?.value.find((n) => n.value === tool);
  if (disabled) return disabled;
  const listed = server.enabledTools?.value.some((n) => n.value === tool);
  return listed === false ? server.enabledTools : undefined;
}

/** A recorded tool's approval_mode that decides nothing, since the tool is hidden. */
function shadowedProblems(server: CodexServer, recorded: Set<string>): ClientProblem[] {
  return [...server.tools].flatMap(([tool, entry]) => {
    const by = entry.mode && recorded.has(tool) ? hiding(server, tool) : undefined;
    if (!entry.mode || !by) return [];
    return [
      {
        kind: 'rule-shadowed' as const,
        rule: entry.mode.text,
        why: `Codex hides ${tool} (${by.text} in ${at(by)}), so it is never offered`,
        fix: 'Remove one of the two, so the file says what Codex does.',
        file: entry.mode.file,
        line: entry.mode.line,
      },
    ];
  });
}

/** The recorded tools of a server (the class list writes `my.notes` as my_notes). */
function recordedOf(server: CodexServer, tools: ClientTool[]): Set<string> {
  return new Set(
    tools
      .filter((t) => t.server === server.key || t.server === normalizeServerName(server.key))
      .map((t) => t.tool),
  );
}

/** Every problem of the committed Codex settings, given the recorded tools. */
export function codexProblems(state: CodexState, tools: ClientTool[]): ClientProblem[] {
  return [...state.servers.values()].flatMap((server) => [
    ...ignoredProblems(server),
    ...staleProblems(server, tools),
    ...shadowedProblems(server, recordedOf(server, tools)),
  ]);
}
