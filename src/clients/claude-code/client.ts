import { compareText } from '../../core/order.js';
import { DEFAULT_SETTINGS, LOCAL_SETTINGS } from './paths.js';
import { loadJsonText } from '../../core/jsontext.js';
import type { Client, ClientTool, ClientVerdict } from '../client.js';
import { expectedDecision } from '../client.js';
import { claudeCodeState, decideTool, type ClaudeCodeState } from './claude-model.js';
import { mergeSettings, parseSettings, type Permissions } from './claude-settings.js';
import { activeWhile, settingsProblems, trustedOnly } from './client-rules.js';
import { DECISIONS, toolRef, type Effective } from './permissions.js';
import { readForCheck } from './settings-check.js';

/*
 * Claude Code as a row of the client registry: the seam (../client.ts) over the verified model of
 * this folder (claude-model.ts, observed on the binary by test/oracle/claude-code.test.ts). Nothing
 * here decides anything the model does not: it only translates shapes.
 */

/** A tool's verdict from the model's effective decision: `unset` is where Claude Code asks. */
export function claudeCodeVerdict(effective: Effective): ClientVerdict {
  const by = effective.by;
  if (!by) return { decision: 'ask', byClient: 'no rule decides it: Claude Code asks each time' };
  return {
    decision: effective.decision === 'unset' ? 'ask' : effective.decision,
    rule: by.rule,
    file: by.file,
    line: by.line,
  };
}

/** The class list's rules for `tools`: one per tool by full name, each list sorted. */
export function permissionsOf(
  tools: ClientTool[],
  mapping: Parameters<Client['writeRules']>[2],
): Permissions {
  const out: Permissions = { allow: [], ask: [], deny: [] };
  for (const tool of tools)
    out[expectedDecision(tool, mapping)].push(toolRef(tool.server, tool.tool).fullName);
  for (const key of DECISIONS) out[key].sort(compareText);
  return out;
}

// Claude Code reads a project file's allow rules only in a trusted workspace: the check assumes
// the trust dialog was accepted, as it is wherever the repository is worked on.
const TRUSTED = 'once the workspace is trusted, as the check assumes';

export const claudeCode: Client<ClaudeCodeState> = {
  id: 'claude-code',
  label: 'Claude Code',
  verified: { binary: '@anthropic-ai/claude-code', version: '2.1.332' },
  projectFiles: [DEFAULT_SETTINGS, LOCAL_SETTINGS],
  fullName: (server, tool) => toolRef(server, tool).fullName,
  // The lines of settings files come from jsonc-parser, a chunk loaded only for them.
  load: loadJsonText,
  // A file Claude Code drops whole is read as dropped (settings-ignored), never as an error.
  read: (files) =>
    claudeCodeState(
      files.map((f) =>
        readForCheck(f.text, f.path, f.path === LOCAL_SETTINGS ? 'local' : 'project'),
      ),
    ),
  configures: (state) => state.files.length > 0,
  decide: (state, tool) =>
    claudeCodeVerdict(decideTool(state, toolRef(tool.server, tool.tool), tool.class === 'read')),
  problems: (state, tools) =>
    settingsProblems(
      state,
      tools.map((t) => [toolRef(t.server, t.tool).fullName, t]),
    ),
  assumes: (state, verdict) => {
    const active = activeWhile(state, verdict);
    return active ? `while ${active}` : trustedOnly(state, verdict) ? TRUSTED : undefined;
  },
  rulesFile: DEFAULT_SETTINGS,
  writeRules: (existing, tools, mapping, path = DEFAULT_SETTINGS) =>
    mergeSettings(
      existing === undefined ? undefined : parseSettings(existing, path),
      permissionsOf(tools, mapping),
      new Set(tools.map((t) => t.server)),
    ).text,
};
