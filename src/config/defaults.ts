/**
 * Default paths and names, in a module light enough for the CLI and the action to read before
 * anything else loads.
 */
export const DEFAULT_CONFIG = '.github/mcp-annotation-auditor.yml';
export const DEFAULT_CLASS_LIST = 'mcp-tool-classes.json';
/** The project's MCP client config (Claude Code's), read when nothing else says what to audit. */
export const MCP_JSON = '.mcp.json';
/** The project settings file Claude Code reads, checked by default when it exists. */
export const DEFAULT_SETTINGS = '.claude/settings.json';
/** The project's local settings file, which Claude Code reads beside DEFAULT_SETTINGS. */
export const LOCAL_SETTINGS = '.claude/settings.local.json';

/** The app directories' rule sets a tool's annotations can be checked against. */
export const POLICIES = ['claude', 'openai', 'explicit'] as const;
export type Policy = (typeof POLICIES)[number];
