import { loadJsonText } from '../../core/jsontext.js';
import type { Client } from '../client.js';
import {
  AGENT_DIRS,
  decideOpencode,
  opencodeName,
  readOpencode,
  type OpencodeState,
} from './model.js';
import { opencodeProblems } from './problems.js';
import { writeOpencodeRules } from './write.js';

/*
 * opencode: a repository's opencode.json (or opencode.jsonc, or either under .opencode/), merged
 * over the user's ~/.config/opencode/opencode.json with no trust step. Verified on the binary,
 * opencode-ai 1.18.33 (test/oracle/opencode.test.ts).
 */

const FILE = 'opencode.json';

export const opencode: Client<OpencodeState> = {
  id: 'opencode',
  label: 'opencode',
  verified: { binary: 'opencode-ai', version: '1.18.33' },
  // The order opencode merges them in, a later file's key winning.
  projectFiles: [FILE, 'opencode.jsonc', '.opencode/opencode.json', '.opencode/opencode.jsonc'],
  // Markdown agents: an agent's own permission is not judged, and says so (rule-unjudged).
  projectDirs: AGENT_DIRS,
  fullName: opencodeName,
  // Where a broken file breaks is told by jsonc-parser, a chunk loaded for client files only.
  load: loadJsonText,
  read: readOpencode,
  configures: (state) =>
    state.servers.size > 0 || state.rules.length > 0 || state.agents.length > 0,
  decide: decideOpencode,
  problems: opencodeProblems,
  rulesFile: FILE,
  writeRules: (existing, tools, mapping, path = FILE) =>
    writeOpencodeRules(existing, tools, mapping, path),
  notes: [
    'Each tool gets an exact permission key, "allow" (read), "ask" (edit) or "deny" (delete), written after every other key of "permission": opencode lets the last matching key decide, so a broad key such as "*" before them still decides only the tools the class list does not record.',
    'With no permission key matching a tool, opencode runs it without asking: a server in opencode.json with no rule runs its delete tools unasked.',
    'opencode run (no one to ask) refuses a tool whose rule is "ask"; "deny" takes the tool off the model’s list.',
  ],
};
