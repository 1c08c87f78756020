import { parseJsonText } from '../../core/jsontext.js';
import { AuditError } from '../../errors.js';

/*
 * A workspace `.gemini/settings.json` as Gemini CLI 0.61.0 reads it: JSON with `//` and `/* *\/`
 * comments (it strips them, then JSON.parse: a trailing comma is fatal, exit 52), and only the
 * settings that decide whether an MCP tool runs, each with its line. Pure.
 */

/** One string of a list setting, where it is written. */
export interface ListEntry {
  value: string;
  /** The setting it is in, as people write it (`tools.allowed`). */
  setting: string;
  line: number;
}

/** A server the workspace file defines: it replaces the user's entry of the same key whole. */
export interface ServerEntry {
  key: string;
  line: number;
  /** It has a command, url or httpUrl: Gemini starts nothing for an entry without one. */
  starts: boolean;
  /** `trust: true`, with its line. */
  trust?: number;
  includeTools?: ListEntry[];
  excludeTools: ListEntry[];
}

export interface GeminiSettings {
  path: string;
  servers: Map<string, ServerEntry>;
  /** `mcp.allowed`: when not empty, only these servers start (and their tools are allowed). */
  allowedServers?: ListEntry[];
  excludedServers: ListEntry[];
  allowed: ListEntry[];
  exclude: ListEntry[];
  confirmationRequired: ListEntry[];
  /** `tools.core`: an allow-list of tools; every tool not on it is refused (outside plan mode). */
  core?: ListEntry[];
  /** `general.defaultApprovalMode`, as written. */
  approvalMode?: { value: string; line: number };
  /** Keys Gemini does not act on when a workspace file sets them, with their lines. */
  ignored: { setting: string; line: number; why: string }[];
}

const FIX =
  'Fix it by hand: Gemini CLI refuses to start with a settings file it cannot parse, or misreads a setting of the wrong type.';

type Path = (string | number)[];
const MODES = ['default', 'auto_edit', 'plan', 'yolo'];

/** The settings of a workspace file; an AuditError naming the file and line for what Gemini refuses. */
export function parseGeminiSettings(text: string, path: string): GeminiSettings {
  const { data, lineOf } = parseJsonText(text, `The Gemini settings file ${path}`, FIX, {
    comments: true,
    lines: true,
  });
  const bad = (where: Path, what: string) =>
    new AuditError(
      `The Gemini settings file ${path} has ${where.join('.') || 'a top level'} that is ${what} (line ${lineOf(...where)}).`,
      FIX,
    );
  const object = (value: unknown, where: Path): Record<string, unknown> | undefined => {
    if (value === undefined) return undefined;
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw bad(where, 'not an object');
    return value as Record<string, unknown>;
  };
  const list = (value: unknown, where: Path): ListEntry[] | undefined => {
    if (value === undefined) return undefined;
    if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
      throw bad(where, 'not a list of strings');
    return (value as string[]).map((v, i) => ({
      value: v,
      setting: where.join('.'),
      line: lineOf(...where, i),
    }));
  };
  const top = object(data, []) as Record<string, unknown>;
  const tools = object(top.tools, ['tools']) ?? {};
  const mcp = object(top.mcp, ['mcp']) ?? {};
  const general = object(top.general, ['general']) ?? {};
  const servers = new Map<string, ServerEntry>();
  for (const [key, raw] of Object.entries(object(top.mcpServers, ['mcpServers']) ?? {})) {
    const where = ['mcpServers', key];
    const entry = object(raw, where) ?? {};
    const starts = ['command', 'url', 'httpUrl'].some((k) => typeof entry[k] === 'string');
    const include = list(entry.includeTools, [...where, 'includeTools']);
    servers.set(key, {
      key,
      line: lineOf(...where),
      starts,
      ...(entry.trust === true ? { trust: lineOf(...where, 'trust') } : {}),
      ...(include ? { includeTools: include } : {}),
      excludeTools: list(entry.excludeTools, [...where, 'excludeTools']) ?? [],
    });
  }
  const mode = general.defaultApprovalMode;
  // Any other value stops Gemini at start-up ("Invalid approval mode").
  if (mode !== undefined && !(typeof mode === 'string' && MODES.includes(mode)))
    throw bad(['general', 'defaultApprovalMode'], `not one of ${MODES.join(', ')}`);
  // Plan mode set while disabled falls back to default.
  const plan = object(general.plan, ['general', 'plan']) ?? {};
  const approvalMode = mode === 'plan' && plan.enabled === false ? 'default' : mode;
  const allowedServers = list(mcp.allowed, ['mcp', 'allowed']);
  const core = list(tools.core, ['tools', 'core']);
  const ignored = ['policyPaths', 'adminPolicyPaths']
    .filter((k) => Object.hasOwn(top, k))
    .map((setting) => ({
      setting,
      line: lineOf(setting),
      why: 'Gemini CLI 0.61.0 loads no policy from it (observed); pass the file with --policy instead',
    }));
  if (mode === 'yolo')
    ignored.push({
      setting: 'general.defaultApprovalMode',
      line: lineOf('general', 'defaultApprovalMode'),
      why: 'Gemini CLI takes yolo only from --yolo or --approval-mode, never from a settings file',
    });
  return {
    path,
    servers,
    ...(allowedServers ? { allowedServers } : {}),
    excludedServers: list(mcp.excluded, ['mcp', 'excluded']) ?? [],
    allowed: list(tools.allowed, ['tools', 'allowed']) ?? [],
    exclude: list(tools.exclude, ['tools', 'exclude']) ?? [],
    confirmationRequired: list(tools.confirmationRequired, ['tools', 'confirmationRequired']) ?? [],
    ...(core ? { core } : {}),
    ...(typeof approvalMode === 'string'
      ? { approvalMode: { value: approvalMode, line: lineOf('general', 'defaultApprovalMode') } }
      : {}),
    ignored,
  };
}
