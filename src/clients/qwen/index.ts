import { loadJsonText } from '../../core/jsontext.js';
import type { Client } from '../client.js';
import { permissionsOf } from '../claude-code/client.js';
import { mergeSettings, parseSettings } from '../claude-code/claude-settings.js';
import { decideQwen, qwenName, QWEN_SETTINGS, readQwen, type QwenState } from './model.js';
import { qwenProblems } from './problems.js';

/*
 * Qwen Code: a repository's .qwen/settings.json, joined with the user's ~/.qwen/settings.json
 * (folder trust is off unless the user turns it on, so the workspace file counts). Its
 * permissions lists have Claude Code's shape and its rules Claude Code's names for a plain key,
 * so the rules are written by Claude Code's settings writer: each tool's rule is
 * mcp__<server key>__<tool>, which Qwen Code also matches for a key it rewrites (a dot).
 * Verified on the binary, @qwen-code/qwen-code 0.24.4 on Node 24 (test/oracle/qwen.test.ts).
 */

export const qwen: Client<QwenState> = {
  id: 'qwen',
  label: 'Qwen Code',
  verified: { binary: '@qwen-code/qwen-code', version: '0.24.4' },
  projectFiles: [QWEN_SETTINGS],
  fullName: qwenName,
  keepsKeys: true,
  // Lines come from jsonc-parser, a chunk loaded for client files only.
  load: loadJsonText,
  read: readQwen,
  configures: (state) =>
    state.rules.length > 0 || state.servers.size > 0 || state.approvalMode !== undefined,
  decide: decideQwen,
  problems: qwenProblems,
  rulesFile: QWEN_SETTINGS,
  writeRules(existing, tools, mapping, path = QWEN_SETTINGS) {
    // Read as Qwen Code reads it first: a setting of the wrong type is refused in its words.
    if (existing !== undefined) readQwen([{ path, text: existing }]);
    return mergeSettings(
      existing === undefined ? undefined : parseSettings(existing, path),
      permissionsOf(tools, mapping),
      new Set(tools.map((t) => t.server)),
    ).text;
  },
  notes: [
    'Each tool gets a rule mcp__<server key>__<tool> in permissions.allow (read), .ask (edit) or .deny (delete); Qwen Code weighs deny over ask over allow in every file, so a broad allow elsewhere does not undo them.',
    'A key with a dot is named mcp__my_notes__<tool>_<hash> to the model; the rule keeps the key as written (mcp__my.notes__<tool>), which Qwen Code matches.',
    'tools.approvalMode "yolo" (or --yolo) runs every tool no deny rule refuses, those with an ask rule too. Headless (qwen -p) refuses a tool that asks.',
  ],
};
