import { DECISIONS, splitMcpName, type Decision, type SettingsRule } from './permissions.js';

/*
 * What `rules --write` takes out of a settings file: every existing rule of the class list's
 * servers is replaced by the class list's own rules, so each one that does not come back in the
 * same list is told, with why, before the file is written.
 */

/** A rule of the file that the write removes, or moves to another list. */
export interface RemovedRule {
  list: Decision;
  rule: string;
  line: number;
  /** The list the class list puts the same rule in, when it moved. */
  movedTo?: Decision;
  why: string;
}

/** Why a rule of `server` that the class list does not keep in its list goes. */
function whyRemoved(
  rule: string,
  server: string,
  tool: string | undefined,
  movedTo: Decision | undefined,
): string {
  if (movedTo)
    return `the class list maps this tool to ${movedTo}: moved to permissions.${movedTo}`;
  const one = `one rule per tool the class list records for ${server}`;
  if (tool === undefined || tool.includes('*'))
    return `a rule for every tool of server ${server} (or a pattern of them): replaced by ${one}`;
  if (rule.includes('('))
    return `not a rule for one tool as the class list writes it: replaced by ${one}`;
  return `${tool} is not a tool the class list records for server ${server}`;
}

/**
 * The rules of `existing` (one settings file's, in file order) that a write of `next` for
 * `servers` takes out of their list: each rule of those servers that `next` does not hold in the
 * same list (a second copy of a kept rule included).
 */
export function removedRules(
  existing: SettingsRule[],
  next: Record<Decision, string[]>,
  servers: Set<string>,
): RemovedRule[] {
  const where = new Map<string, Decision>();
  for (const decision of DECISIONS) for (const rule of next[decision]) where.set(rule, decision);
  const kept = new Set<string>();
  const out: RemovedRule[] = [];
  for (const { list, rule, line } of existing) {
    const parts = splitMcpName(rule.split('(')[0] as string);
    if (!parts || !servers.has(parts.server)) continue;
    const key = `${list}\n${rule}`;
    const now = where.get(rule);
    if (now === list && !kept.has(key)) {
      kept.add(key);
      continue;
    }
    out.push({
      list,
      rule,
      line,
      ...(now !== undefined && now !== list ? { movedTo: now } : {}),
      why:
        now === list
          ? 'a second copy of a rule that is kept once'
          : whyRemoved(rule, parts.server, parts.tool, now),
    });
  }
  return out;
}
