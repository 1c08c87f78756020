/** The version reported by the CLI, the MCP client info and SARIF. */
export const VERSION = '0.1.0';

/**
 * How every command the auditor suggests starts: pinned to the version that printed it, so that
 * `npx` runs the project's own install of that version and never fetches whatever else is
 * published under the name.
 */
export const NPX_COMMAND = `npx mcp-annotation-auditor@${VERSION}`;
