import type { Client } from '../client.js';
import { decideCodex, readCodex, type CodexState } from './model.js';
import { codexProblems } from './problems.js';
import { loadToml } from './toml.js';
import { writeCodexRules } from './write.js';

/*
 * OpenAI Codex CLI: a repository's .codex/config.toml, which Codex loads only for a project the
 * user trusts, and then over the user's own ~/.codex/config.toml (key by key, the project's
 * winning). Verified on the binary, @openai/codex 0.171.0 (test/oracle/codex.test.ts).
 */

const FILE = '.codex/config.toml';

/** A name as Codex shows it to the model: every character but A-Z a-z 0-9 _ becomes _. */
const sanitize = (name: string): string => name.replace(/[^A-Za-z0-9_]/g, '_') || '_';

export const codex: Client<CodexState> = {
  id: 'codex',
  label: 'Codex CLI',
  verified: { binary: '@openai/codex', version: '0.171.0' },
  projectFiles: [FILE],
  // Codex offers the server's tools in a namespace mcp__<key> (key `my.notes` → mcp__my_notes);
  // a name over 64 bytes gets a hash suffix, which is not modelled here.
  fullName: (server, tool) => `mcp__${sanitize(server)}__${sanitize(tool)}`,
  load: loadToml,
  read: readCodex,
  configures: (state) => state.servers.size > 0,
  decide: decideCodex,
  problems: codexProblems,
  rulesFile: FILE,
  writeRules: (existing, tools, mapping, path = FILE) =>
    writeCodexRules(existing, tools, mapping, path),
  notes: [
    `Codex loads ${FILE} only in a project the user trusts ([projects."<path>"] trust_level = "trusted" in ~/.codex/config.toml, which the trust prompt writes); the check judges the file as a trusting user's Codex reads it.`,
    'Each tool gets approval_mode "approve" (read), "prompt" (edit) or "prompt" (delete): Codex has no per-tool refusal short of hiding the tool (disabled_tools), and none is left to "auto", which decides from the annotations under review.',
    `A server in ${FILE} needs a command or url in some config file: with only [mcp_servers.<key>.tools.<tool>] tables and no server of that key in ~/.codex/config.toml, Codex refuses to start ("invalid transport").`,
    'A setting of the user’s own ~/.codex/config.toml that the project file leaves unset still applies (Codex merges the two key by key).',
  ],
};
