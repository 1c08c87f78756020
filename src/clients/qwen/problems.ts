import type { ClientProblem, ClientTool } from '../client.js';
import {
  qwenName,
  ruleMatches,
  sanitize,
  writtenName,
  type QwenRule,
  type QwenState,
} from './model.js';

/*
 * Findings about Qwen Code's permission rules themselves: a rule that can never match an MCP tool
 * (`*` alone, a (...) specifier, another case, a key with a dot written with _), and a rule aimed
 * at a recorded server that names none of its recorded tools. Pure.
 */

const quoted = (r: QwenRule) => `"${r.rule}" in permissions.${r.list}`;

/** Why a rule meant for a recorded tool never matches it, or undefined when not. */
function neverMatches(rule: QwenRule, tools: ClientTool[]): string | undefined {
  const text = rule.rule.trim();
  if (text === '*') return '`*` alone matches no MCP tool (write mcp__<server> or mcp__*)';
  if (text.startsWith('mcp__') && text.includes('('))
    return 'an MCP rule with (...) never matches (an MCP tool’s name says it all)';
  const meant = tools.find(
    (t) =>
      sanitize(text) === sanitize(writtenName(t.server, t.tool)) ||
      text.toLowerCase() === writtenName(t.server, t.tool).toLowerCase(),
  );
  if (!meant) return undefined;
  const written = writtenName(meant.server, meant.tool);
  return `Qwen Code names the tool ${qwenName(meant.server, meant.tool)}: write ${written} (case counts, and the key is written as it is)`;
}

/** Every problem of the committed Qwen Code rules, given the recorded tools. */
export function qwenProblems(state: QwenState, tools: ClientTool[]): ClientProblem[] {
  const found: ClientProblem[] = [];
  const servers = [...new Set(tools.map((t) => t.server))];
  for (const rule of state.rules) {
    if (tools.some((t) => ruleMatches(rule.rule, t.server, t.tool))) continue;
    const never = neverMatches(rule, tools);
    const where = { file: rule.file, line: rule.line };
    if (never) {
      found.push({
        kind: 'rule-ignored',
        rule: quoted(rule),
        why: never,
        fix: 'Write the rule as mcp__<server key>__<tool>, mcp__<server key> or a prefix ending in *, or remove it.',
        ...where,
      });
      continue;
    }
    const text = rule.rule.trim();
    const server = servers.find(
      (s) => text.startsWith(writtenName(s, '')) || text.startsWith(sanitize(writtenName(s, ''))),
    );
    if (server !== undefined && !text.endsWith('*'))
      found.push({
        kind: 'rule-stale',
        rule: quoted(rule),
        why: `no tool the class list records for the ${server} server`,
        fix: 'A typo or a removed tool: fix the name, or remove the rule (rules --client qwen --write rewrites its own rules).',
        ...where,
      });
  }
  return found.sort((a, b) => a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0));
}
