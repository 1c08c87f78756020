import { readFile } from 'node:fs/promises';
import * as z from 'zod/v4';
import { lazily } from '../lazy.js';
import { normalizeServerName } from '../core/classlist.js';
import { DEFAULT_CLASS_LIST, DEFAULT_CONFIG, MCP_JSON, POLICIES, type Policy } from './defaults.js';
import { AuditError } from '../errors.js';
import {
  DEFAULT_LIMITS,
  type ListLimits,
  type ProtocolEra,
  type ServerTarget,
} from '../server/listing.js';
import { DEFAULT_POLICIES } from '../core/policies.js';
import { ERA_SETTINGS } from '../core/eras.js';
import {
  FAIL_ON_LEVELS,
  isRuleId,
  RULE_IDS,
  SEVERITIES,
  type FailOn,
  type RuleId,
  type Severity,
} from '../core/rules.js';
import { parseEnvEntries, serverEnvironment, type SpawnSpec } from '../server/process.js';
import { mergeSecrets, REDACTED, redactArgs, redactUrl, secretsOf } from '../redact.js';
import { isObject } from '../core/tools.js';
import { NPX_COMMAND } from '../version.js';

export type EraSetting = ProtocolEra | 'both';

export interface Waiver {
  rule: RuleId;
  /** The tool's name, or its full `mcp__server__tool` name. */
  tool: string;
  reason: string;
  /** YYYY-MM-DD; the waiver stops applying after this day. */
  expires?: string;
}

/** One server to audit, resolved. */
export interface ServerSettings {
  /** From configuration; when absent, the server's own reported name, normalised. */
  name?: string;
  target: ServerTarget;
  era: EraSetting;
  /** How a person re-runs `update` for this server, for the drift message. */
  updateCommand?: string;
}

export interface Settings {
  servers: ServerSettings[];
  classList: string;
  policies: Policy[];
  failOn: FailOn;
  severities: Partial<Record<RuleId, Severity | 'off'>>;
  waivers: Waiver[];
  approveLabel?: string;
  limits: ListLimits;
  /** Only some of the configured servers are audited (--server): others' entries are left alone. */
  partial: boolean;
}

/** The config file's schemas, built only when there is a config file to read. */
const schemas = lazily(() => {
  const envSchema = z
    .union([
      z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
      z.array(z.string()),
    ])
    .optional();
  const spawnSchema = {
    command: z.string().min(1),
    args: z.array(z.union([z.string(), z.number()]).transform(String)).default([]),
    cwd: z.string().optional(),
    env: envSchema,
  };
  const serverSchema = z.looseObject({
    // The .mcp.json shape: stdio has command/args/env; HTTP has type "http" with url/headers.
    type: z.string().optional(),
    command: z.string().min(1).optional(),
    args: spawnSchema.args,
    cwd: z.string().optional(),
    env: envSchema,
    url: z.string().optional(),
    headers: z.record(z.string(), z.string()).optional(),
    start: z.strictObject(spawnSchema).optional(),
    protocolEra: z.enum(ERA_SETTINGS).optional(),
  });
  const severitySchema = z.enum([...SEVERITIES, 'off']);
  const fileSchema = z.looseObject({
    classList: z.string().optional(),
    policies: z.array(z.enum(POLICIES)).optional(),
    failOn: z.enum(FAIL_ON_LEVELS).optional(),
    protocolEra: z.enum(ERA_SETTINGS).optional(),
    rules: z.record(z.string(), severitySchema).optional(),
    approveLabel: z.string().optional(),
    startTimeout: z.number().positive().optional(),
    listTimeout: z.number().positive().optional(),
    maxPages: z.number().int().positive().optional(),
    maxTools: z.number().int().positive().optional(),
    waivers: z
      .array(
        z.strictObject({
          rule: z.string(),
          tool: z.string().min(1),
          reason: z.string().min(1),
          // Checked to be a real day after parsing, where the message can name the waiver.
          expires: z
            .union([z.string(), z.date().transform((d) => d.toISOString().slice(0, 10))])
            .optional(),
        }),
      )
      .optional(),
    servers: z.record(z.string(), serverSchema).optional(),
    // Client rules (claude-settings.ts): the Claude Code settings files to check, the mapping.
    settings: z.union([z.string().min(1), z.array(z.string().min(1))]).optional(),
    clientRules: z.unknown().optional(),
    mcpServers: z.record(z.string(), serverSchema).optional(),
  });
  return { env: envSchema, server: serverSchema, file: fileSchema };
});
type Schemas = ReturnType<typeof schemas>;
export type ConfigFile = z.infer<Schemas['file']>;

/**
 * `${NAME}` (or `${NAME:-default}`, or VS Code's `${env:NAME}`) in a config value reads the
 * auditor's environment, as `.mcp.json` files write it, so secrets stay out of files;
 * `${workspaceFolder}`, unless set, is the directory the audit runs in. An unset name without a
 * default is an error rather than an empty value the server would misread.
 */
function expandVars(value: string, where: string, file: string): string {
  return value.replace(
    /\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g,
    (written: string, name: string, fallback: string | undefined) => {
      const set = process.env[name];
      if (set !== undefined && (set !== '' || fallback === undefined)) return set;
      if (fallback !== undefined) return fallback;
      if (name === 'workspaceFolder') return process.cwd();
      throw new AuditError(
        `${where} in ${file} uses ${written}, which is not set.`,
        `Set ${name} in the environment of the audit (a placeholder will do if listing tools does not need it), or write \${${name}:-default}.`,
      );
    },
  );
}

function envFromConfig(
  env: z.infer<Schemas['env']>,
  where: string,
  file: string,
): Record<string, string | null> {
  if (!env) return {};
  const entries = Array.isArray(env)
    ? Object.entries(parseEnvEntries(env))
    : Object.entries(env).map(([k, v]): [string, string | null] => [
        k,
        v === null ? null : String(v),
      ]);
  return Object.fromEntries(
    entries.map(([k, v]) => [k, v === null ? null : expandVars(v, `${where} env ${k}`, file)]),
  );
}

/**
 * `Name: value` header lines, as curl takes them. A bad line is named by its position (and its
 * first word, when more follows it): the rest may be a credential.
 */
export function parseHeaders(lines: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [index, line] of lines.entries()) {
    const colon = line.indexOf(':');
    if (colon <= 0) {
      const first = /^\s*([A-Za-z0-9-]{1,64})\s+\S/.exec(line)?.[1];
      const which = `Header ${index + 1}${colon < 0 && first !== undefined ? ` ("${first} …")` : ''}`;
      throw new AuditError(
        colon < 0 ? `${which} has no colon between its name and value.` : `${which} has no name.`,
        'Write each header as "Name: value", e.g. --header "Authorization: Bearer abc" (one per line in the headers input). Its value is not shown here: it may be a secret.',
      );
    }
    out[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return out;
}

function expandHeaders(
  headers: Record<string, string>,
  where: string,
  file: string,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([k, v]) => [k, expandVars(v, `${where} header ${k}`, file)]),
  );
}

/** A command, its args, cwd and named environment from a config entry, variables expanded. */
function spawnFromConfig(
  entry: {
    command: string;
    args: string[];
    cwd?: string | undefined;
    env?: z.infer<Schemas['env']>;
  },
  where: string,
  file: string,
): SpawnSpec {
  return {
    command: expandVars(entry.command, `${where} command`, file),
    args: entry.args.map((arg) => expandVars(arg, `${where} args`, file)),
    ...(entry.cwd !== undefined ? { cwd: expandVars(entry.cwd, `${where} cwd`, file) } : {}),
    env: serverEnvironment(envFromConfig(entry.env, where, file)),
  };
}

/** The keys of a server entry the auditor reads. */
const SERVER_KEYS = [
  'type',
  'command',
  'args',
  'cwd',
  'env',
  'url',
  'headers',
  'start',
  'protocolEra',
];

/**
 * Keys other MCP clients write in a server entry (Claude Code, Claude Desktop, Cursor, VS Code,
 * Cline, Windsurf...): accepted and ignored, since they say nothing about what the server lists.
 */
export const IGNORED_SERVER_KEYS = [
  'disabled',
  'alwaysAllow',
  'autoApprove',
  'timeout',
  'description',
  'envFile',
  'trust',
  'includeTools',
  'excludeTools',
  'oauth',
  'name',
  'transportType',
  'serverUrl',
];

/** A misspelt key in a server entry (`evn:`, `tpye:`) is an error naming the key meant. */
function checkServerKeys(key: string, entry: object, file: string): void {
  for (const written of Object.keys(entry)) {
    if (SERVER_KEYS.includes(written) || IGNORED_SERVER_KEYS.includes(written)) continue;
    const meant = nearestKey(written, [...SERVER_KEYS, ...IGNORED_SERVER_KEYS], false);
    throw new AuditError(
      `Server "${key}" in ${file} has an unknown key ${JSON.stringify(written)}${meant !== undefined ? `; did you mean ${JSON.stringify(meant)}?` : '.'}`,
      `A server entry has ${SERVER_KEYS.join(', ')}; keys other clients use (${IGNORED_SERVER_KEYS.join(', ')}) are accepted and ignored.`,
    );
  }
}

/** One server entry of a config file (or .mcp.json) as settings. */
function serverFromConfig(
  key: string,
  entry: z.infer<Schemas['server']>,
  file: string,
  era: EraSetting,
): ServerSettings {
  checkServerKeys(key, entry, file);
  const serverEra = entry.protocolEra ?? era;
  const where = `Server "${key}"`;
  // The class list's mcp__<server>__<tool> prefix takes the name as the client would.
  const name = normalizeServerName(key);
  if (entry.type === 'sse')
    throw new AuditError(
      `${where} in ${file} uses the old HTTP+SSE transport (type "sse"), which the auditor does not speak.`,
      'Give the Streamable HTTP endpoint (type "http", often at /mcp) if the server has one, or leave this server out with --server.',
    );
  if (entry.url !== undefined || entry.type === 'http' || entry.type === 'streamable-http') {
    if (!entry.url)
      throw new AuditError(
        `${where} in ${file} is of type http but has no url.`,
        'Add url: http://host:port/mcp.',
      );
    // Only a start command has an environment: an env beside url would reach nothing.
    // An empty one, as generated .mcp.json files carry, says nothing to ignore.
    if (entry.env !== undefined && Object.keys(entry.env).length > 0)
      throw new AuditError(
        `${where} in ${file} has env next to url; an HTTP server gets no environment from the auditor, so it would be ignored.`,
        'Put env under start, with the command that launches the server (start: {command, args, env}), or remove it.',
      );
    const target: ServerTarget = {
      kind: 'http',
      url: expandVars(entry.url, `${where} url`, file),
      headers: expandHeaders(entry.headers ?? {}, where, file),
      label: key,
    };
    if (entry.start) target.start = spawnFromConfig(entry.start, `${where} start`, file);
    return { name, target, era: serverEra };
  }
  if (!entry.command)
    throw new AuditError(
      `${where} in ${file} has neither a command nor a url.`,
      'Give command (and args) for a stdio server, or url for Streamable HTTP.',
    );
  return {
    name,
    era: serverEra,
    target: {
      kind: 'stdio',
      spawn: spawnFromConfig({ ...entry, command: entry.command }, where, file),
      label: key,
    },
  };
}

/** The yaml module, as ESM or (once bundled) as a CommonJS namespace with a default export. */
async function loadYaml(): Promise<typeof import('yaml')> {
  const module = (await import('yaml')) as typeof import('yaml') & {
    default?: typeof import('yaml');
  };
  return typeof module.parse === 'function' ? module : (module.default as typeof import('yaml'));
}

/** Whether `day` is a real calendar day written YYYY-MM-DD (not 2027-02-30). */
function isCalendarDay(day: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return false;
  const time = Date.parse(day);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === day;
}

/** The edit distance between two words (insertions, deletions, substitutions). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(
        (previous[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    previous = row;
  }
  return previous[b.length] as number;
}

/** The known key `key` was probably meant to be: the same but for case, or within two edits. */
export function nearestKey(key: string, known: string[], caseOnly: boolean): string | undefined {
  const lower = key.toLowerCase();
  const same = known.find((k) => k.toLowerCase() === lower);
  if (same !== undefined || caseOnly) return same;
  let best: { key: string; distance: number } | undefined;
  for (const k of known) {
    const distance = editDistance(lower, k.toLowerCase());
    if (distance <= 2 && (!best || distance < best.distance)) best = { key: k, distance };
  }
  return best?.key;
}

/**
 * Refuses unknown top-level keys, so a typo (`polices:`) is not silently ignored. A JSON file is
 * often an MCP client's own (.mcp.json, .vscode/mcp.json, claude_desktop_config.json) with keys of
 * its own: there, only a known key in the wrong case is refused.
 */
function checkTopLevelKeys(data: unknown, path: string, known: string[]): void {
  if (!isObject(data)) return;
  const shared = path.toLowerCase().endsWith('.json');
  for (const key of Object.keys(data)) {
    if (known.includes(key)) continue;
    const meant = nearestKey(key, known, shared);
    if (shared && meant === undefined) continue;
    throw new AuditError(
      `The config file ${path} has an unknown key ${JSON.stringify(key)}${meant !== undefined ? `; did you mean ${JSON.stringify(meant)}?` : '.'}`,
      `Known keys: ${known.join(', ')}. See the README for the config file format.`,
    );
  }
}

/**
 * Reads a config file (YAML; JSON such as .mcp.json is YAML too). `required` makes a missing file
 * an error; the default path may simply not exist.
 */
export async function readConfigFile(
  path: string,
  required: boolean,
  read: (path: string) => Promise<string> = (p) => readFile(p, 'utf8'),
): Promise<ConfigFile | undefined> {
  let text: string;
  try {
    text = await read(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !required) return undefined;
    throw new AuditError(
      `Could not read the config file ${path}: ${(error as Error).message}.`,
      'Check the path given with --config.',
    );
  }
  // Loaded only when there is a config file: most runs have none and need not pay for it.
  const yaml = await loadYaml();
  let data: unknown;
  try {
    data = yaml.parse(text) ?? {};
  } catch (error) {
    const pos = error instanceof yaml.YAMLParseError ? error.linePos?.[0] : undefined;
    // The parser's first line ends "at line 3, column 3:" before an excerpt: said once, here.
    const problem = (error as Error).message
      .split('\n')[0]
      ?.replace(/\s*at line \d+, column \d+:?\s*$/, '')
      .replace(/[\s:.]+$/, '');
    throw new AuditError(
      `The config file ${path} is not valid YAML${pos ? ` at line ${pos.line}, column ${pos.col}` : ''}: ${problem}.`,
      'Fix the syntax; see the README for the format.',
    );
  }
  const fileSchema = schemas().file;
  checkTopLevelKeys(data, path, Object.keys(fileSchema.shape));
  const parsed = fileSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AuditError(
      `The config file ${path} has a bad value at ${issue?.path.join('.') || 'top level'}: ${issue?.message}.`,
      'See the README for the config file format.',
    );
  }
  for (const rule of Object.keys(parsed.data.rules ?? {}))
    if (!isRuleId(rule))
      throw new AuditError(
        `The config file ${path} sets a severity for unknown rule "${rule}".`,
        `Known rules: ${RULE_IDS.join(', ')}.`,
      );
  for (const waiver of parsed.data.waivers ?? []) {
    if (!isRuleId(waiver.rule))
      throw new AuditError(
        `The config file ${path} has a waiver for unknown rule "${waiver.rule}".`,
        `Known rules: ${RULE_IDS.join(', ')}.`,
      );
    if (waiver.expires !== undefined && !isCalendarDay(waiver.expires))
      throw new AuditError(
        `The config file ${path} has a waiver of ${waiver.rule} for ${JSON.stringify(waiver.tool)} that expires ${JSON.stringify(waiver.expires)}, which is not a date.`,
        'Write expires as YYYY-MM-DD, a real day, e.g. 2027-01-31.',
      );
  }
  return parsed.data;
}

/**
 * The line of each waiver in a config file's text, in the order of its `waivers` (0 where one has
 * no position): what is said about a waiver (stale-waiver) points at where it is written.
 */
export async function waiverLines(text: string): Promise<number[]> {
  const yaml = await loadYaml();
  const counter = new yaml.LineCounter();
  const waivers = yaml.parseDocument(text, { lineCounter: counter }).get('waivers', true);
  if (!yaml.isSeq(waivers)) return [];
  return waivers.items.map((item) =>
    yaml.isNode(item) && item.range ? counter.linePos(item.range[0]).line : 0,
  );
}

/** What the command line (or the action's inputs) says; every field optional, flags win. */
export interface Overrides {
  command?: string[];
  url?: string;
  /** With url: a command line (as words) that serves it, started first and stopped at the end. */
  start?: string[];
  headers?: string[];
  env?: string[];
  cwd?: string;
  serverName?: string;
  /** Only audit these servers of the config file. */
  only?: string[];
  classList?: string;
  policies?: Policy[];
  failOn?: FailOn;
  era?: EraSetting;
  approveLabel?: string;
  startTimeoutMs?: number;
  listTimeoutMs?: number;
  maxPages?: number;
  maxTools?: number;
}

/** Shell-quotes one word of a command line shown to people. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The `update` command that records what these options audit, as a person would type it. It
 * ends up in PR comments, so environment values are never shown: only the variable's name.
 */
export function updateCommandLine(o: Overrides, config?: string): string {
  const args = [...NPX_COMMAND.split(' '), 'update'];
  if (config !== undefined) args.push('--config', config);
  if (o.classList !== undefined && o.classList !== DEFAULT_CLASS_LIST)
    args.push('--class-list', o.classList);
  if (o.serverName !== undefined) args.push('--server-name', o.serverName);
  for (const name of o.only ?? []) args.push('--server', name);
  for (const entry of o.env ?? [])
    args.push(
      '--env',
      entry.includes('=') ? `${entry.slice(0, entry.indexOf('='))}=<value>` : entry,
    );
  if (o.cwd !== undefined) args.push('--cwd', o.cwd);
  if (o.era !== undefined && o.era !== 'legacy') args.push('--protocol-era', o.era);
  // This command reaches reports and PR comments: the URL (whose path may hold a key) becomes a
  // placeholder, and the secrets in a command line become ***.
  if (o.url !== undefined) args.push('--url', URL_PLACEHOLDER);
  const start = o.start?.length ? redactArgs(o.start) : undefined;
  if (start) args.push('--start', start.shown.map(shellQuote).join(' '));
  const command = o.command?.length ? redactArgs(o.command) : undefined;
  if (command) args.push('--', ...command.shown);
  const line = args.map(shellQuote).join(' ');
  // A shell comment: the line still runs as it is, once the placeholders are filled in.
  const notes: string[] = [];
  if (o.url !== undefined) notes.push(`replace ${URL_PLACEHOLDER} with the server's URL`);
  if (start?.secrets.length || command?.secrets.length) notes.push(REDACTED_NOTE);
  return notes.length ? `${line} # ${notes.join('; ')}` : line;
}

/** Stands for the server's URL in an update command. */
export const URL_PLACEHOLDER = '<url>';

/** Said after an update command whose command line lost its secrets. */
const REDACTED_NOTE = `replace each ${REDACTED} with the secret it stands for`;

/**
 * The key of the server in the project's `.mcp.json` whose command line is `command` (the
 * audited one): the name a client gives the server's tools, so the class list uses it too.
 */
export function projectKeyOf(file: ConfigFile | undefined, command: string[]): string | undefined {
  const entries = Object.entries({ ...(file?.mcpServers ?? {}), ...(file?.servers ?? {}) });
  const same = (entry: (typeof entries)[number][1]) =>
    entry.command !== undefined && [entry.command, ...entry.args].join('\0') === command.join('\0');
  const matches = entries.filter(([, entry]) => same(entry));
  return matches.length === 1 ? matches[0]?.[0] : undefined;
}

/**
 * For a command or URL given directly: names the server by its `.mcp.json` key when that file
 * lists the same command line and nothing else named it. Returns the key used.
 */
export async function nameFromProject(
  settings: Settings,
  command: string[] | undefined,
  read?: (path: string) => Promise<string>,
): Promise<string | undefined> {
  const server = settings.servers[0];
  if (!command?.length || settings.servers.length !== 1 || !server || server.name !== undefined)
    return undefined;
  // A .mcp.json that does not parse is not this run's config: it only fails to name the server.
  const project = await readConfigFile(MCP_JSON, false, read).catch(() => undefined);
  const key = projectKeyOf(project, command);
  if (key !== undefined) server.name = normalizeServerName(key);
  return key;
}

/** Where the run's servers come from, in the words of the CLI or of the action's inputs. */
export type Surface = 'cli' | 'action';

/** Flags override the file; the file overrides defaults. */
export function resolveSettings(
  file: ConfigFile | undefined,
  filePath: string,
  flags: Overrides,
  surface: Surface = 'cli',
): Settings {
  const era: EraSetting = flags.era ?? file?.protocolEra ?? 'legacy';
  let servers: ServerSettings[];
  const env = parseEnvEntries(flags.env ?? []);
  if (flags.command?.length) {
    const [command, ...args] = flags.command as [string, ...string[]];
    servers = [
      {
        ...(flags.serverName !== undefined ? { name: normalizeServerName(flags.serverName) } : {}),
        era,
        target: {
          kind: 'stdio',
          spawn: {
            command,
            args,
            ...(flags.cwd !== undefined ? { cwd: flags.cwd } : {}),
            env: serverEnvironment(env),
          },
        },
      },
    ];
  } else if (flags.url) {
    if (!/^https?:\/\//i.test(flags.url))
      throw new AuditError(
        `--url must be an http:// or https:// URL, not "${redactUrl(flags.url)}".`,
        'Give the Streamable HTTP endpoint, e.g. --url http://127.0.0.1:3000/mcp.',
      );
    const target: ServerTarget = {
      kind: 'http',
      url: flags.url,
      headers: parseHeaders(flags.headers ?? []),
    };
    if (flags.start?.length) {
      const [command, ...args] = flags.start as [string, ...string[]];
      target.start = {
        command,
        args,
        ...(flags.cwd !== undefined ? { cwd: flags.cwd } : {}),
        env: serverEnvironment(env),
      };
    }
    servers = [
      {
        ...(flags.serverName !== undefined ? { name: normalizeServerName(flags.serverName) } : {}),
        era,
        target,
      },
    ];
  } else {
    const both = Object.keys(file?.mcpServers ?? {}).find((n) =>
      Object.hasOwn(file?.servers ?? {}, n),
    );
    if (both !== undefined)
      throw new AuditError(
        `Server "${both}" is in both mcpServers and servers of ${filePath}.`,
        'Keep one entry for it: the two may differ, and only one can be audited under that name.',
      );
    const entries = { ...(file?.mcpServers ?? {}), ...(file?.servers ?? {}) };
    if (flags.only?.length) {
      const unknown = flags.only.filter((n) => !Object.hasOwn(entries, n));
      if (unknown.length)
        throw new AuditError(
          `No server named ${unknown.map((n) => `"${n}"`).join(', ')} in ${filePath}.`,
          `Configured servers: ${Object.keys(entries).join(', ') || 'none'}.`,
        );
    }
    const chosen = Object.entries(entries).filter(
      ([name]) => !flags.only?.length || flags.only.includes(name),
    );
    const extraHeaders = parseHeaders(flags.headers ?? []);
    servers = chosen.map(([name, entry]) => {
      const server = serverFromConfig(name, entry, filePath, era);
      // Command-line environment, headers and working directory add to every configured server.
      const spawn = server.target.kind === 'stdio' ? server.target.spawn : server.target.start;
      if (spawn) {
        Object.assign(spawn.env, serverEnvironment(env, process.env, false));
        if (flags.cwd !== undefined) spawn.cwd ??= flags.cwd;
      }
      if (server.target.kind === 'http') Object.assign(server.target.headers, extraHeaders);
      return server;
    });
    // One name for one server: the only one configured, or the one --server chose.
    if (flags.serverName !== undefined && servers.length > 1)
      throw new AuditError(
        `--server-name (the server-name input) names one server, but this run audits ${servers.length} servers of ${filePath}.`,
        'Name servers by their config keys (each key is the <server> in mcp__<server>__<tool>): rename a key, or choose one server with --server.',
      );
    if (servers.length === 1 && flags.serverName !== undefined)
      (servers[0] as ServerSettings).name = normalizeServerName(flags.serverName);
  }
  if (flags.headers?.length && !servers.some((s) => s.target.kind === 'http'))
    throw new AuditError(
      '--header (the headers input) is given, but no server of this run speaks HTTP; a stdio server takes no headers.',
      'Give --url (the url input) for a Streamable HTTP server, or leave the headers out.',
    );
  if (!servers.length)
    throw new AuditError(
      'No server to audit.',
      surface === 'action'
        ? `Set the command input to the server's stdio command line (e.g. command: node dist/server.js), or the url input, or list servers in ${DEFAULT_CONFIG} or ${MCP_JSON} (the config input).`
        : `Give its command after --, e.g. mcp-annotation-auditor check -- node server.js, or --url, or list servers in ${MCP_JSON} or ${DEFAULT_CONFIG}.`,
    );
  const classList = flags.classList ?? file?.classList ?? DEFAULT_CLASS_LIST;
  if (!classList.trim())
    throw new AuditError(
      flags.classList !== undefined
        ? '--class-list is empty.'
        : `classList in ${filePath} is empty.`,
      `Give the path of the class list file, or leave it out for ${DEFAULT_CLASS_LIST}.`,
    );
  const settings: Settings = {
    servers,
    partial: Boolean(flags.only?.length),
    classList,
    // Once each: a profile named twice (--policy openai,openai) would report each finding twice.
    policies: [...new Set(flags.policies ?? file?.policies ?? DEFAULT_POLICIES)],
    failOn: flags.failOn ?? file?.failOn ?? 'error',
    severities: file?.rules ?? {},
    waivers: (file?.waivers ?? []) as Waiver[],
    limits: {
      startTimeoutMs:
        flags.startTimeoutMs ??
        (file?.startTimeout !== undefined
          ? file.startTimeout * 1000
          : DEFAULT_LIMITS.startTimeoutMs),
      listTimeoutMs:
        flags.listTimeoutMs ??
        (file?.listTimeout !== undefined ? file.listTimeout * 1000 : DEFAULT_LIMITS.listTimeoutMs),
      maxPages: flags.maxPages ?? file?.maxPages ?? DEFAULT_LIMITS.maxPages,
      maxTools: flags.maxTools ?? file?.maxTools ?? DEFAULT_LIMITS.maxTools,
    },
  };
  const approveLabel = flags.approveLabel ?? file?.approveLabel;
  if (approveLabel !== undefined) settings.approveLabel = approveLabel;
  return settings;
}

/**
 * The secrets of the servers' settings, for masking and redaction: each HTTP server's URL, the
 * parts of it that may be a key, and its header values; the secrets in each command line.
 */
export function secretsOfServers(servers: ServerSettings[]): string[] {
  return mergeSecrets(
    ...servers.map((s) =>
      s.target.kind === 'http'
        ? [
            ...secretsOf(s.target.url, s.target.headers),
            ...(s.target.start ? redactArgs(s.target.start.args).secrets : []),
          ]
        : redactArgs(s.target.spawn.args).secrets,
    ),
  );
}
