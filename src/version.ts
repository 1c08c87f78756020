/** The version reported by the CLI, the MCP client info and SARIF. */
export const VERSION = '0.1.0';
