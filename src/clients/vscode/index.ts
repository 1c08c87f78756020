import { loadJsonText } from '../../core/jsontext.js';
import type { Client } from '../client.js';
import {
  decideVscode,
  ELIGIBLE,
  readVscode,
  VSCODE_MCP,
  VSCODE_SETTINGS,
  vscodeName,
  type VscodeState,
} from './model.js';
import { vscodeProblems } from './problems.js';
import { writeVscodeRules } from './write.js';

/*
 * VS Code (GitHub Copilot's agent mode): a repository's .vscode/mcp.json and .vscode/settings.json.
 * Modelled from VS Code's documentation and its settings' registrations only: VS Code does not
 * run here, so no oracle checks this model, and the PR comment says its decisions are "from
 * their documentation" (verified: 'documentation').
 */

export const vscode: Client<VscodeState> = {
  id: 'vscode',
  label: 'VS Code',
  verified: 'documentation',
  projectFiles: [VSCODE_MCP, VSCODE_SETTINGS],
  fullName: vscodeName,
  // Both files are JSON with comments, read through jsonc-parser, a chunk loaded for client files.
  load: loadJsonText,
  read: readVscode,
  configures: (state) =>
    state.servers.size > 0 || state.eligible.length > 0 || state.ignored.length > 0,
  decide: decideVscode,
  problems: vscodeProblems,
  rulesFile: VSCODE_SETTINGS,
  writeRules: (existing, tools, mapping, path = VSCODE_SETTINGS) =>
    writeVscodeRules(existing, tools, mapping, path),
  notes: [
    `Each edit and delete tool gets "<tool>": false in ${ELIGIBLE}: VS Code then asks every time and never offers to approve it for the session, the workspace or always. VS Code has no committed way to refuse a tool, so a delete tool asks too.`,
    'A read tool gets no entry: VS Code runs a tool unasked only when it declares readOnlyHint: true (no setting a workspace can commit makes it run unasked otherwise).',
    `An organization policy for ${ELIGIBLE} replaces the workspace's value; chat.tools.global.autoApprove is each user's own (machine scope), and a workspace cannot set it either way.`,
    'From VS Code’s documentation only: no VS Code runs in the test suite to check it.',
  ],
};
