import type { ClientProblem, ClientTool } from '../client.js';
import { ALLOWLIST, cursorName, entryMatches, entryParts } from './model.js';
import type { CursorState } from './model.js';

/*
 * Findings about Cursor's mcpAllowlist entries themselves: one Cursor drops or that can never
 * match a tool (not a string, not server:tool, Claude Code's mcp__ form), and one naming a
 * recorded server but none of its recorded tools. Pure.
 */

/** Why an entry never matches an MCP tool, or undefined when it may. */
function neverMatches(entry: unknown): string | undefined {
  if (typeof entry !== 'string') return 'Cursor drops an entry that is not a string';
  if (entry.startsWith('mcp__'))
    return 'that is Claude Code’s form; Cursor’s is server:tool (as .cursor/mcp.json names the server)';
  if (!entryParts(entry)) return 'an entry is server:tool, either side * for any name';
  return undefined;
}

/** Every problem of the committed Cursor allowlist, given the recorded tools. */
export function cursorProblems(state: CursorState, tools: ClientTool[]): ClientProblem[] {
  const found: ClientProblem[] = [];
  const servers = new Set(tools.map((t) => t.server));
  for (const e of state.allowlist) {
    const where = { file: e.file, line: e.line };
    const shown = JSON.stringify(e.entry) ?? String(e.entry);
    const never = neverMatches(e.entry);
    if (never) {
      found.push({
        kind: 'rule-ignored',
        rule: `${shown} in ${ALLOWLIST}`,
        why: never,
        fix: `Write the entry as ${cursorName('<server>', '<tool>')}, or remove it.`,
        ...where,
      });
      continue;
    }
    const server = entryParts(e.entry as string)?.server as string;
    if (!servers.has(server)) continue;
    if (!tools.some((t) => entryMatches(e.entry, t.server, t.tool)))
      found.push({
        kind: 'rule-stale',
        rule: `${shown} in ${ALLOWLIST}`,
        why: `no tool the class list records for the ${server} server`,
        fix: 'A typo or a removed tool: fix the name, or remove the entry.',
        ...where,
      });
  }
  return found;
}
