/*
 * Claude Code's permission rules for MCP tools, over plain data: which rules it honours, how one
 * matches a full tool name, and the decision the merged rules of every settings file make. The
 * real Claude Code is the oracle (test/oracle/claude-code.test.ts runs it on the same settings files).
 */

/** The three rule lists of a settings file's `permissions`, in the order Claude Code checks them. */
export const DECISIONS = ['deny', 'ask', 'allow'] as const;
export type Decision = (typeof DECISIONS)[number];

/** One string of a `permissions.allow|ask|deny` list, where it was written. */
export interface SettingsRule {
  list: Decision;
  rule: string;
  file: string;
  line: number;
}

/** What Claude Code makes of one rule string, as far as MCP tools go. */
export type RuleShape =
  /** `mcp__S`, `mcp__S__*`, `mcp__S__T`, `mcp__S__a*b`: a glob over S's tool names. */
  | { kind: 'tool'; server: string; pattern: string }
  /** A `*` before or in the server part (`mcp__*`, `mcp__no*`, `*`): honoured in ask and deny only. */
  | { kind: 'glob'; pattern: string }
  /** A rule Claude Code skips, with why and what it was probably meant to say. */
  | { kind: 'ignored'; why: string; meant?: string }
  /** Not about MCP tools (`Bash(npm test)`, `Read`): left alone. */
  | { kind: 'other' };

const SERVER = /^[A-Za-z0-9_-]+$/;

/** The server and tool parts of `mcp__<server>__<tool>`; the tool part is absent for `mcp__<server>`. */
export function splitMcpName(name: string): { server: string; tool?: string } | undefined {
  if (!name.startsWith('mcp__')) return undefined;
  const rest = name.slice(5);
  const at = rest.indexOf('__');
  return at < 0 ? { server: rest } : { server: rest.slice(0, at), tool: rest.slice(at + 2) };
}

/** How Claude Code reads one rule of the `list` list. */
export function ruleShape(rule: string, list: Decision): RuleShape {
  // Claude Code never trims a rule: " mcp__notes" is no MCP rule at all, "mcp__notes " names
  // a server or tool with a space in it. Either way the rule matches nothing.
  if (rule.trim() !== rule && rule.trim().startsWith('mcp__'))
    return {
      kind: 'ignored',
      why: 'it has whitespace at its start or end, which Claude Code keeps as part of the name, so the rule matches no tool',
      meant: rule.trim(),
    };
  const mcp = rule.startsWith('mcp__');
  if (!mcp && rule !== '*') return { kind: 'other' };
  if (rule.includes('(')) {
    const bare = rule.slice(0, rule.indexOf('('));
    return {
      kind: 'ignored',
      why: 'Claude Code skips an mcp__ rule with parentheses in a settings file (it cannot match parameter values)',
      ...(bare.startsWith('mcp__') ? { meant: bare } : {}),
    };
  }
  const parts = splitMcpName(rule);
  const server = parts?.server ?? '';
  if (!mcp || server.includes('*')) {
    if (list !== 'allow') return { kind: 'glob', pattern: rule };
    return {
      kind: 'ignored',
      why: 'an allow rule with * outside the tool part approves nothing: Claude Code needs mcp__<server>__ before the *',
      ...(server.replace(/\*.*$/, '') && !server.startsWith('*')
        ? { meant: `mcp__${server.replace(/\*.*$/, '')}` }
        : {}),
    };
  }
  if (!SERVER.test(server))
    return {
      kind: 'ignored',
      why: `"${server}" is not a server name as Claude Code writes it (only A-Z a-z 0-9 _ -), so the rule matches no tool`,
      meant: `mcp__${server.replace(/[^A-Za-z0-9_*-]/g, '_')}${parts?.tool !== undefined ? `__${parts.tool}` : ''}`,
    };
  if (parts?.tool === '')
    return {
      kind: 'ignored',
      why: 'the tool part is empty, so the rule matches no tool',
      meant: `mcp__${server}`,
    };
  return { kind: 'tool', server, pattern: parts?.tool ?? '*' };
}

/** `*` matches any run of characters (none too); everything else is literal. */
export function globMatches(pattern: string, text: string): boolean {
  const parts = pattern.split('*');
  if (parts.length === 1) return pattern === text;
  const first = parts[0] as string;
  const last = parts.at(-1) as string;
  if (!text.startsWith(first) || text.length < first.length + last.length || !text.endsWith(last))
    return false;
  let at = first.length;
  const end = text.length - last.length;
  for (const middle of parts.slice(1, -1)) {
    const found = text.indexOf(middle, at);
    if (found < 0 || found + middle.length > end) return false;
    at = found + middle.length;
  }
  return true;
}

/**
 * An MCP tool as Claude Code knows it: the server key it connected under (normalized) and the
 * tool's own name. The server key may itself hold `__` (`notes__x`), and allow rules see that
 * key while deny and ask rules see the full name split at its first `__` (see `matches`).
 */
export interface ToolRef {
  server: string;
  tool: string;
  fullName: string;
}

export function toolRef(server: string, tool: string): ToolRef {
  return { server, tool, fullName: `mcp__${server}__${tool}` };
}

/** The server and tool parts a deny or ask rule sees: the full name split at its first `__`. */
function splitAtFirst(ref: ToolRef): { server: string; tool: string } {
  const at = ref.server.indexOf('__');
  return at < 0
    ? { server: ref.server, tool: ref.tool }
    : { server: ref.server.slice(0, at), tool: `${ref.server.slice(at + 2)}__${ref.tool}` };
}

/**
 * Whether a rule of this shape in the `list` list matches the tool, as observed on the binary:
 * - an allow rule matches its exact full name, `mcp__S`/`mcp__S__*` when S is the server key,
 *   and a tool-part glob after `mcp__<server key>__` (so for key `notes__x` only
 *   `mcp__notes__x__*` and exact names approve anything);
 * - a deny or ask rule also matches `mcp__<server key>` itself, and reads the full name split at
 *   its first `__` (so `mcp__notes`, `mcp__notes__*` and `mcp__notes__x` hit every tool of key
 *   `notes__x`); a `*` in the server part is a glob over the full name.
 */
export function matches(shape: RuleShape, list: Decision, ref: ToolRef, rule: string): boolean {
  if (rule === ref.fullName) return true;
  if (shape.kind === 'glob') return globMatches(shape.pattern, ref.fullName);
  if (shape.kind !== 'tool') return false;
  if (list === 'allow') {
    if (shape.pattern === '*' && shape.server === ref.server) return true;
    const prefix = `mcp__${ref.server}__`;
    return (
      rule.includes('*') &&
      rule.startsWith(prefix) &&
      globMatches(rule.slice(prefix.length), ref.tool)
    );
  }
  if (rule === `mcp__${ref.server}`) return true;
  const seen = splitAtFirst(ref);
  return shape.server === seen.server && globMatches(shape.pattern, seen.tool);
}

/** Whether a rule of this shape matches the tool named `mcp__<server>__<tool>` (no `__` in server). */
export function shapeMatches(shape: RuleShape, fullName: string): boolean {
  const parts = splitMcpName(fullName);
  if (!parts?.tool) return false;
  const ref = toolRef(parts.server, parts.tool);
  if (shape.kind === 'glob') return globMatches(shape.pattern, fullName);
  return shape.kind === 'tool' && matches(shape, 'deny', ref, '');
}

/** A tool's effective decision: `unset` when no rule decides (Claude Code then asks). */
export interface Effective {
  decision: Decision | 'unset';
  /** The deciding rule: the first match in the first list that has one (deny, ask, allow). */
  by?: SettingsRule;
}

/** One rule as compiled once: its shape and its place in the merged order. */
interface Compiled {
  rule: SettingsRule;
  shape: RuleShape;
  order: number;
}

/**
 * Globs indexed by their literal start (before the first `*`) and end (after the last): a text
 * tries only the globs whose start and end it has, looked up by the lengths that occur, so
 * thousands of globs of one server cost each tool a few lookups, not thousands of comparisons.
 */
class GlobBucket<T> {
  private readonly starts = new Map<string, Map<string, T[]>>();
  private readonly startLengths = new Set<number>();
  private readonly endLengths = new Set<number>();

  add(pattern: string, entry: T): void {
    const first = pattern.indexOf('*');
    const start = first < 0 ? pattern : pattern.slice(0, first);
    const end = first < 0 ? '' : pattern.slice(pattern.lastIndexOf('*') + 1);
    const ends = this.starts.get(start) ?? new Map<string, T[]>();
    this.starts.set(start, ends);
    ends.set(end, [...(ends.get(end) ?? []), entry]);
    this.startLengths.add(start.length);
    this.endLengths.add(end.length);
  }

  /** The globs that may match `text`: a superset of those that do. */
  candidates(text: string): T[] {
    const found: T[] = [];
    for (const n of this.startLengths) {
      const ends = n <= text.length ? this.starts.get(text.slice(0, n)) : undefined;
      if (!ends) continue;
      for (const m of this.endLengths)
        if (n + m <= text.length) found.push(...(ends.get(text.slice(text.length - m)) ?? []));
    }
    return found;
  }
}

/**
 * The merged rules, compiled once and indexed so that deciding a tool looks up its exact name
 * and its server's globs by their literal start and end instead of trying every rule: the work
 * grows with the rules' total length, plus per tool the globs that share its start and end.
 */
export class RuleIndex {
  /** Per list: rules without `*`, by their text (first in merged order wins). */
  private readonly exact = new Map<Decision, Map<string, Compiled>>();
  /** Per list: `mcp__S` / `mcp__S__*` and tool-part globs, by the server part S. */
  private readonly byServer = new Map<Decision, Map<string, GlobBucket<Compiled>>>();
  /** Per list: globs over the whole name (`mcp__*`, `mcp__no*`, `*`): ask and deny only. */
  private readonly anywhere = new Map<Decision, GlobBucket<Compiled>>();
  /** Every compiled rule, in merged order. */
  readonly compiled: Compiled[] = [];
  /** How many glob comparisons deciding has made: a measure of work for tests. */
  globTries = 0;

  constructor(rules: SettingsRule[]) {
    const seen = new Set<string>();
    for (const list of DECISIONS) {
      this.exact.set(list, new Map());
      this.byServer.set(list, new Map());
      this.anywhere.set(list, new GlobBucket());
    }
    rules.forEach((rule, order) => {
      const shape = ruleShape(rule.rule, rule.list);
      const entry = { rule, shape, order };
      this.compiled.push(entry);
      if (shape.kind !== 'tool' && shape.kind !== 'glob') return;
      // A repeated rule decides nothing the first did not: index it once.
      const key = `${rule.list}\u0000${rule.rule}`;
      if (seen.has(key)) return;
      seen.add(key);
      if (!rule.rule.includes('*')) {
        (this.exact.get(rule.list) as Map<string, Compiled>).set(rule.rule, entry);
        if (shape.kind === 'glob' || shape.pattern !== '*') return;
      }
      if (shape.kind === 'glob') this.anywhere.get(rule.list)?.add(shape.pattern, entry);
      else {
        const servers = this.byServer.get(rule.list) as Map<string, GlobBucket<Compiled>>;
        const bucket = servers.get(shape.server) ?? new GlobBucket();
        // Matched against the tool part of the name split at its first __ (see `matches`).
        bucket.add(shape.pattern, entry);
        servers.set(shape.server, bucket);
      }
    });
  }

  /** The rules of `list` that match the tool, in merged order. */
  matching(list: Decision, ref: ToolRef): Compiled[] {
    const exact = this.exact.get(list) as Map<string, Compiled>;
    const found: Compiled[] = [];
    const add = (c: Compiled | undefined) => {
      if (c && !found.includes(c)) found.push(c);
    };
    add(exact.get(ref.fullName));
    if (list !== 'allow') add(exact.get(`mcp__${ref.server}`));
    // Both lists bucket a rule by its server part and match its tool part against the name's
    // tool part split at the first __ (a superset for allow, which `matches` then narrows).
    const seen = splitAtFirst(ref);
    const candidates = [
      ...(this.byServer.get(list)?.get(seen.server)?.candidates(seen.tool) ?? []),
      ...(this.anywhere.get(list)?.candidates(ref.fullName) ?? []),
    ];
    for (const c of candidates) {
      this.globTries++;
      if (matches(c.shape, list, ref, c.rule.rule)) add(c);
    }
    return found.sort((a, b) => a.order - b.order);
  }

  /** Deny, then ask, then allow: the first match in the first list that has one decides. */
  decide(ref: ToolRef): Effective {
    for (const list of DECISIONS) {
      const first = this.matching(list, ref)[0];
      if (first) return { decision: list, by: first.rule };
    }
    return { decision: 'unset' };
  }
}

/**
 * What Claude Code does with a tool under the merged rules of every settings file: deny, then
 * ask, then allow; the first match decides; rules it skips decide nothing. `fullName` is split at
 * its first `__`; with a server key that holds `__`, use a RuleIndex and a ToolRef.
 */
export function decide(rules: SettingsRule[], fullName: string): Effective {
  const parts = splitMcpName(fullName);
  if (!parts?.tool) return { decision: 'unset' };
  return new RuleIndex(rules).decide(toolRef(parts.server, parts.tool));
}
