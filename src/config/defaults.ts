/**
 * Default paths and names, in a module light enough for the CLI and the action to read before
 * anything else loads.
 */
export const DEFAULT_CONFIG = '.github/mcp-annotation-auditor.yml';
export const DEFAULT_CLASS_LIST = 'mcp-tool-classes.json';
/** OpenAI's hint justifications file (the Apps SDK's name for it). */
export const DEFAULT_JUSTIFICATIONS = 'tool-hint-justifications.json';
/** The project's MCP client config (Claude Code's), read when nothing else says what to audit. */
export const MCP_JSON = '.mcp.json';
// Claude Code's settings files are its model's (clients/claude-code/); kept here for the readers.
export { DEFAULT_SETTINGS, LOCAL_SETTINGS } from '../clients/claude-code/paths.js';
import { DEFAULT_SETTINGS, LOCAL_SETTINGS } from '../clients/claude-code/paths.js';
/**
 * Every project file of the registry's clients (clients/registry.ts, each row's projectFiles):
 * the action's entry reads them before the server under audit runs. A test keeps the two equal.
 */
export const CLIENT_PROJECT_FILES: readonly string[] = [
  DEFAULT_SETTINGS,
  LOCAL_SETTINGS,
  '.codex/config.toml',
  '.gemini/settings.json',
  '.gemini/mcp-tool-classes.policy.toml',
  'opencode.json',
  'opencode.jsonc',
  '.opencode/opencode.json',
  '.opencode/opencode.jsonc',
  '.qwen/settings.json',
  '.vscode/mcp.json',
  '.vscode/settings.json',
  '.cursor/mcp.json',
  '.cursor/permissions.json',
];

/**
 * Every project folder of the registry's clients (each row's projectDirs): the action's entry
 * lists and reads their files before the server under audit runs. A test keeps the two equal.
 */
export const CLIENT_PROJECT_DIRS: readonly string[] = [
  '.gemini/policies',
  '.opencode/agent',
  '.opencode/agents',
  '.opencode/mode',
  '.opencode/modes',
];

// The policies' names are core/'s (what checks tools); kept here too for the config readers.
export { POLICIES, type Policy } from '../core/policy-names.js';
