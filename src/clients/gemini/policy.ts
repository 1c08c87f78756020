import type * as Toml from 'toml-eslint-parser';
import type { AST } from 'toml-eslint-parser';
import { AuditError } from '../../errors.js';

/*
 * Gemini CLI policy files (TOML, `[[rule]]` tables): read with the line of every rule, checked as
 * Gemini 0.61.0 checks them (one rule it refuses and it skips the whole file), and the class
 * list's rules merged into one with every other byte kept. The TOML parser is loaded on first use
 * (loadPolicyParser), as most runs read no Gemini file. Pure once loaded.
 */

type Parser = typeof Toml;
let parser: Parser | undefined;

/** Loads the TOML parser (a separate chunk of the bundle); reading or writing a policy needs it. */
export async function loadPolicyParser(): Promise<void> {
  const module = (await import('toml-eslint-parser')) as Parser & { default?: Parser };
  parser ??= typeof module.parseTOML === 'function' ? module : module.default;
}

export type PolicyDecision = 'allow' | 'deny' | 'ask_user';
const DECISIONS: readonly string[] = ['allow', 'deny', 'ask_user'];
const MODES: readonly string[] = ['default', 'autoEdit', 'plan', 'yolo'];
/** The keys a rule this project writes has, and nothing else (so it can be rewritten). */
const OWN_KEYS: readonly string[] = ['mcpName', 'toolName', 'decision', 'priority'];

/** One `[[rule]]` of a policy file, as Gemini reads it. */
export interface PolicyRule {
  /** The names it matches, with `mcpName` applied (`mcp_<server>_<tool>`), as Gemini forms them. */
  toolNames: string[];
  mcpName?: string;
  decision: PolicyDecision;
  /** 0 to 999 within its tier. */
  priority: number;
  modes?: string[];
  interactive?: boolean;
  toolAnnotations?: Record<string, unknown>;
  /** Set when it matches only some arguments (argsPattern, commandPrefix, commandRegex). */
  args: boolean;
  /** Only a subagent's calls match it. */
  subagent: boolean;
  line: number;
  /** The rule as written, on one line, for messages. */
  text: string;
  /** Only the keys this project writes, one tool name: the writer may rewrite it. */
  own: boolean;
  /** Where it is in the text (a `[[rule]]` table), for the writer. */
  table?: AST.TOMLTable;
}

export interface PolicyFile {
  path: string;
  text: string;
  rules: PolicyRule[];
  /** Why Gemini skips the whole file, with the line to fix; its rules then count for nothing. */
  skipped?: { why: string; line: number };
  top: AST.TOMLTopLevelTable;
}

/** `mcp_<server>_<tool>` as Gemini forms a rule's name from mcpName and toolName. */
export function mcpRuleName(server: string, tool: string | undefined): string {
  if (server === '*') return tool === undefined || tool === '*' ? 'mcp_*' : `mcp_*_${tool}`;
  return tool === undefined || tool === '*' ? `mcp_${server}_*` : `mcp_${server}_${tool}`;
}

/** Why Gemini's schema refuses one rule, or undefined when it takes it. */
function refusal(raw: Record<string, unknown>): string | undefined {
  const names = Array.isArray(raw.toolName) ? raw.toolName : [raw.toolName];
  if (raw.toolName === undefined) return 'it has no toolName (use "*" for every tool)';
  if (!names.every((n) => typeof n === 'string')) return 'its toolName is not a string or list';
  if (!DECISIONS.includes(raw.decision as string))
    return 'its decision is not "allow", "deny" or "ask_user"';
  const p = raw.priority;
  if (typeof p !== 'number' || !Number.isInteger(p) || p < 0 || p > 999)
    return 'its priority is not a whole number from 0 to 999';
  for (const key of ['mcpName', 'subagent', 'argsPattern', 'commandRegex'])
    if (raw[key] !== undefined && typeof raw[key] !== 'string') return `its ${key} is not a string`;
  if (raw.interactive !== undefined && typeof raw.interactive !== 'boolean')
    return 'its interactive is not true or false';
  const modes = raw.modes;
  if (
    modes !== undefined &&
    !(Array.isArray(modes) && modes.every((m: unknown) => MODES.includes(m as string)))
  )
    return `its modes are not a list of ${MODES.join(', ')}`;
  const annotations = raw.toolAnnotations;
  if (annotations !== undefined && (typeof annotations !== 'object' || Array.isArray(annotations)))
    return 'its toolAnnotations is not a table';
  return undefined;
}

function asRule(
  raw: Record<string, unknown>,
  table: AST.TOMLTable | undefined,
  line: number,
  text: string,
): PolicyRule {
  const names = (Array.isArray(raw.toolName) ? raw.toolName : [raw.toolName]) as string[];
  const mcpName = raw.mcpName as string | undefined;
  return {
    toolNames: names.map((n) => (mcpName ? mcpRuleName(mcpName, n) : n)),
    ...(mcpName !== undefined ? { mcpName } : {}),
    decision: raw.decision as PolicyDecision,
    priority: raw.priority as number,
    ...(raw.modes !== undefined ? { modes: raw.modes as string[] } : {}),
    ...(raw.interactive !== undefined ? { interactive: raw.interactive as boolean } : {}),
    ...(raw.toolAnnotations !== undefined
      ? { toolAnnotations: raw.toolAnnotations as Record<string, unknown> }
      : {}),
    args: ['argsPattern', 'commandPrefix', 'commandRegex'].some((k) => raw[k] !== undefined),
    subagent: raw.subagent !== undefined,
    line,
    text,
    own: Object.keys(raw).every((k) => OWN_KEYS.includes(k)) && typeof raw.toolName === 'string',
    ...(table ? { table } : {}),
  };
}

/**
 * Parses a policy file. Text that is not TOML is an AuditError naming the line; a file Gemini's
 * schema refuses comes back `skipped` (Gemini loads none of its rules then).
 */
export function parsePolicy(text: string, path: string): PolicyFile {
  if (!parser) throw new Error('internal: loadPolicyParser() was not awaited');
  let ast: AST.TOMLProgram;
  try {
    ast = parser.parseTOML(text, { tomlVersion: '1.0.0' });
  } catch (error) {
    const e = error as { message?: string; lineNumber?: number; column?: number };
    throw new AuditError(
      `The Gemini policy file ${path} is not valid TOML at line ${e.lineNumber ?? 1}, column ${(e.column ?? 0) + 1}: ${e.message ?? String(error)}.`,
      'Fix that line: Gemini CLI skips a policy file it cannot parse, and the auditor will not overwrite it.',
    );
  }
  const top = ast.body[0];
  const data = parser.getStaticTOMLValue(ast) as Record<string, unknown>;
  const tables = new Map<number, AST.TOMLTable>();
  for (const item of top.body)
    if (item.type === 'TOMLTable' && item.kind === 'array' && item.resolvedKey.length === 2)
      if (item.resolvedKey[0] === 'rule') tables.set(item.resolvedKey[1] as number, item);
  const ruleLine = top.body.find((i) => i.type === 'TOMLKeyValue' && i.key.keys.length === 1);
  const raws = data.rule;
  const file: PolicyFile = { path, text, rules: [], top };
  if (raws === undefined) return file;
  if (!Array.isArray(raws) || raws.some((r) => typeof r !== 'object' || Array.isArray(r)))
    return { ...file, skipped: { why: '"rule" is not a list of tables', line: 1 } };
  for (const [i, raw] of (raws as Record<string, unknown>[]).entries()) {
    const table = tables.get(i);
    const line = table?.loc.start.line ?? ruleLine?.loc.start.line ?? 1;
    const why = refusal(raw);
    if (why) return { ...file, rules: [], skipped: { why: `rule ${i + 1}: ${why}`, line } };
    const written = table ? text.slice(...table.range) : JSON.stringify(raw);
    file.rules.push(asRule(raw, table, line, written.replace(/\s*\n\s*/g, ' ')));
  }
  return file;
}

/** A TOML basic string: JSON's escapes are TOML's, and DEL must be escaped too. */
const tomlString = (value: string): string => JSON.stringify(value).replace(/\u007f/g, '\\u007F');

/** A rule this project writes for one tool: by mcpName and toolName when those form its name. */
export interface OwnRule {
  server: string;
  tool: string;
  /** The name Gemini gives the tool. */
  fullName: string;
  decision: PolicyDecision;
  priority: number;
}

/** The `[[rule]]` table for one tool. */
export function renderRule(rule: OwnRule): string {
  // mcpName and toolName form the tool's name only when Gemini did not have to change it.
  const byServer = mcpRuleName(rule.server, rule.tool) === rule.fullName;
  return [
    '[[rule]]',
    ...(byServer
      ? [`mcpName = ${tomlString(rule.server)}`, `toolName = ${tomlString(rule.tool)}`]
      : [`toolName = ${tomlString(rule.fullName)}`]),
    `decision = ${tomlString(rule.decision)}`,
    `priority = ${rule.priority}`,
    '',
  ].join('\n');
}

/** The offsets of the whole lines a range is on, with the line end after it and one blank line before. */
function linesOf(text: string, [start, end]: [number, number]): [number, number] {
  let from = text.lastIndexOf('\n', start - 1) + 1;
  if (text.slice(0, from).endsWith('\n\n')) from--;
  const next = text.indexOf('\n', end);
  return [from, next < 0 ? text.length : next + 1];
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

/** The value of a key in a table, by name. */
function valueOf(table: AST.TOMLTable, key: string): AST.TOMLKeyValue['value'] | undefined {
  return table.body.find(
    (kv) =>
      kv.key.keys.length === 1 &&
      ((kv.key.keys[0] as AST.TOMLBare).name ?? (kv.key.keys[0] as AST.TOMLQuoted).value) === key,
  )?.value;
}

/**
 * The policy text with `wanted` merged in: a rule of this project's shape for a wanted tool is
 * kept and its decision and priority set; one that repeats it, or names another tool of the same
 * servers, is removed; a missing one is added at the end. Every other byte stays. Refuses (an
 * AuditError) a file Gemini would skip, since rules added to it would never count.
 */
export function mergePolicy(existing: PolicyFile, wanted: OwnRule[], header: string): string {
  if (existing.skipped)
    throw new AuditError(
      `Gemini CLI skips the whole policy file ${existing.path}: ${existing.skipped.why} (line ${existing.skipped.line}).`,
      'Fix that rule first; rules added to a file Gemini skips would never count.',
    );
  const { text } = existing;
  const byName = new Map(wanted.map((w) => [w.fullName, w]));
  const prefixes = [...new Set(wanted.map((w) => mcpRuleName(w.server, undefined).slice(0, -1)))];
  const done = new Set<string>();
  const edits: Edit[] = [];
  for (const rule of existing.rules) {
    const name = rule.toolNames[0] as string;
    const ours =
      rule.own && rule.table && (byName.has(name) || prefixes.some((p) => name.startsWith(p)));
    if (!ours || !rule.table) continue;
    const want = byName.get(name);
    if (!want || done.has(name)) {
      edits.push({ ...range(linesOf(text, rule.table.range)), text: '' });
      continue;
    }
    done.add(name);
    for (const [key, value] of [
      ['decision', tomlString(want.decision)],
      ['priority', String(want.priority)],
    ] as const) {
      const node = valueOf(rule.table, key);
      if (node && text.slice(...node.range) !== value)
        edits.push({ start: node.range[0], end: node.range[1], text: value });
    }
  }
  let out = text;
  for (const edit of edits.sort((a, b) => b.start - a.start))
    out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  const missing = wanted.filter((w) => !done.has(w.fullName)).map(renderRule);
  if (!missing.length) return out;
  if (out.trim() === '') out = header;
  else out = out.endsWith('\n\n') ? out : out.endsWith('\n') ? `${out}\n` : `${out}\n\n`;
  return out + missing.join('\n');
}

const range = ([start, end]: [number, number]) => ({ start, end });
