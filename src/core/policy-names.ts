/**
 * The app directories' rule sets a tool's annotations can be checked against (policies.ts holds
 * the checks), in a module light enough for the early start's reading of the inputs.
 */
export const POLICIES = ['claude', 'openai', 'explicit'] as const;
export type Policy = (typeof POLICIES)[number];
