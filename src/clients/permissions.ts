// clients/: what the audit means for an MCP client's own settings (Claude Code's permission
// rules, read and merged as plain text, the findings and comment notes about them). Pure: the
// files are read and written by files.ts, action/ and cli/. May import core/, the shared pure
// modules and report/'s types. A new client gets its own modules here.
/*
 * Claude Code's permission rules for MCP tools, over plain data: which rules it honours, how one
 * matches a full tool name, and the decision the merged rules of every settings file make. The
 * real Claude Code is the oracle (test/claude-code.test.ts runs it on the same settings files).
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

/** Whether a rule of this shape matches the tool `mcp__<server>__<tool>`. */
export function shapeMatches(shape: RuleShape, fullName: string): boolean {
  if (shape.kind === 'glob') return globMatches(shape.pattern, fullName);
  if (shape.kind !== 'tool') return false;
  const prefix = `mcp__${shape.server}__`;
  return fullName.startsWith(prefix) && globMatches(shape.pattern, fullName.slice(prefix.length));
}

/** A tool's effective decision: `unset` when no rule decides (Claude Code then asks). */
export interface Effective {
  decision: Decision | 'unset';
  /** The deciding rule: the first match in the first list that has one (deny, ask, allow). */
  by?: SettingsRule;
}

/**
 * What Claude Code does with a tool under the merged rules of every settings file: deny, then
 * ask, then allow; the first match decides; rules it skips decide nothing.
 */
export function decide(rules: SettingsRule[], fullName: string): Effective {
  for (const list of DECISIONS)
    for (const rule of rules)
      if (rule.list === list && shapeMatches(ruleShape(rule.rule, list), fullName))
        return { decision: list, by: rule };
  return { decision: 'unset' };
}
