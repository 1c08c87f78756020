/**
 * Where Claude Code reads a project's settings, in a module light enough for the action's early
 * start, which reads them before the server under audit runs (config/defaults.ts re-exports them).
 */

/** The project settings file Claude Code reads, checked by default when it exists. */
export const DEFAULT_SETTINGS = '.claude/settings.json';
/** The project's local settings file, which Claude Code reads beside DEFAULT_SETTINGS. */
export const LOCAL_SETTINGS = '.claude/settings.local.json';
/** Custom slash commands: a file's `allowed-tools` run unasked while the command is active. */
export const COMMANDS_DIR = '.claude/commands';
/** Skills, one folder each with its SKILL.md: `allowed-tools` as for a command. */
export const SKILLS_DIR = '.claude/skills';
