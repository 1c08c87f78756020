import type { ClientProblem, ClientTool } from '../client.js';
import {
  globMatch,
  opencodeName,
  sanitize,
  type OpencodeRule,
  type OpencodeState,
} from './model.js';

/*
 * Findings about the permission keys themselves: a key that was meant for a recorded tool but can
 * never match it (a character opencode writes as _, another case, a pattern an MCP call never
 * has), a key aimed at a server that names no recorded tool, and a key that a later key always
 * overrides (the last match wins, so it decides nothing). Pure.
 */

const at = (r: OpencodeRule) => `${r.file} line ${r.line}`;

/** Whether every name `earlier` matches, `later` matches too (decided for the shapes people write). */
function covers(later: string, earlier: string): boolean {
  if (later === earlier) return true;
  if (later === '*' || /^\*+$/.test(later)) return true;
  // "prefix*" with no other wildcard covers a key that starts with that prefix, written out.
  const star = later.indexOf('*');
  if (star !== later.length - 1 || /[?]/.test(later)) return false;
  const prefix = later.slice(0, star);
  return (
    earlier.length >= prefix.length &&
    !/[*?]/.test(earlier.slice(0, prefix.length)) &&
    earlier.startsWith(prefix)
  );
}

/** Why a key meant for a recorded tool never matches it, or undefined when it does or was not meant. */
function neverMatches(rule: OpencodeRule, names: string[]): string | undefined {
  if (names.some((n) => globMatch(n, rule.key))) {
    if (globMatch('*', rule.pattern)) return undefined;
    return `an MCP tool call is matched with the pattern "*", which "${rule.pattern}" never matches`;
  }
  // What the key was meant to be: opencode's spelling of it, and the case it ignores.
  const spelled = rule.key.replace(/[^A-Za-z0-9_*?-]/g, '_');
  const meant = names.find((n) => globMatch(n, spelled));
  if (meant && spelled !== rule.key)
    return `opencode names the tool ${meant} (every character but letters, digits, _ and - is written as _)`;
  const folded = names.find((n) => globMatch(n.toLowerCase(), rule.key.toLowerCase()));
  if (folded) return `opencode names the tool ${folded}, and case counts`;
  return undefined;
}

/** The server prefixes (<server>_) the class list records or the files configure. */
function prefixes(state: OpencodeState, tools: ClientTool[]): string[] {
  const keys = new Set([...tools.map((t) => t.server), ...state.servers.keys()]);
  return [...keys].map((k) => `${sanitize(k)}_`);
}

/** Every problem of the committed opencode permission keys, given the recorded tools. */
export function opencodeProblems(state: OpencodeState, tools: ClientTool[]): ClientProblem[] {
  const names = tools.map((t) => opencodeName(t.server, t.tool));
  const found: ClientProblem[] = state.agents.map((agent) => ({
    kind: 'rule-unjudged',
    rule: agent.text,
    why: 'an agent’s own permission and tools override the global ones for that agent, and the check judges only the global ones, so this may let a recorded tool run unasked in that agent',
    fix: 'Move the rules to the global "permission" (rules --client opencode --write opencode.json writes the class list’s), or remove the agent’s own.',
    file: agent.file,
    line: agent.line,
  }));
  const servers = prefixes(state, tools);
  state.rules.forEach((rule, i) => {
    const never = neverMatches(rule, names);
    const matched = names.filter((n) => globMatch(n, rule.key));
    if (never) {
      found.push({
        kind: 'rule-ignored',
        rule: rule.text,
        why: never,
        fix: 'Write the key as opencode names the tool (<server>_<tool>, with _ for other characters), or remove it.',
        file: rule.file,
        line: rule.line,
      });
      return;
    }
    if (!matched.length && servers.some((p) => rule.key.startsWith(p))) {
      found.push({
        kind: 'rule-stale',
        rule: rule.text,
        why: 'no tool the class list records',
        fix: 'A typo or a removed tool: fix the name, or remove the key.',
        file: rule.file,
        line: rule.line,
      });
      return;
    }
    if (!matched.length || !globMatch('*', rule.pattern)) return;
    const later = state.rules
      .slice(i + 1)
      .find((r) => globMatch('*', r.pattern) && covers(r.key, rule.key));
    if (later)
      found.push({
        kind: 'rule-shadowed',
        rule: rule.text,
        why: `${later.text} (${at(later)}) comes after it and matches every tool it does, and in opencode the last matching key wins`,
        fix: 'Move the narrower key after the broader one, or remove one of the two.',
        file: rule.file,
        line: rule.line,
      });
  });
  return found;
}
