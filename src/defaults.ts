/** Default paths, in a module light enough for the CLI to read before anything else loads. */
export const DEFAULT_CONFIG = '.github/mcp-annotation-auditor.yml';
export const DEFAULT_CLASS_LIST = 'mcp-tool-classes.json';
