import { bound } from '../escape.js';
import * as z from 'zod/v4';
import { lazily } from '../lazy.js';
import { normalizeServerName } from '../core/classlist.js';
import { AuditError } from '../errors.js';
import type { ServerTarget } from '../server/listing.js';
import { isRuleId, RULE_IDS, SEVERITIES } from '../core/rules.js';
import { configTypes, type ConfigValues } from './options.js';
import type { ConfigType } from './option-kinds.js';
import { ERA_SETTINGS } from '../core/eras.js';
import { parseEnvEntries, serverEnvironment, type SpawnSpec } from '../server/process.js';
import { isObject } from '../core/tools.js';
import { nearestKey } from './nearest.js';
import { readTrusted } from '../trusted.js';
import type { EraSetting } from '../core/eras.js';

/*
 * The config file (YAML, or JSON such as a project's .mcp.json): read, checked key by key so a
 * typo is named, and each server entry turned into the server it describes.
 */

/** The schema of what the config file holds for an option's key (see ConfigType). */
function schemaOf(type: ConfigType): z.ZodType {
  switch (type.type) {
    case 'string':
      return type.nonEmpty ? z.string().min(1) : z.string();
    case 'enum':
      return z.enum(type.values as [string, ...string[]]);
    case 'number':
      return type.integer ? z.number().int().positive() : z.number().positive();
    case 'list':
      return z.array(schemaOf(type.of));
    case 'one-or-list':
      return z.union([schemaOf(type.of), z.array(schemaOf(type.of))]);
  }
}

/** The option rows' keys of the config file, each optional, typed as the rows say. */
function optionKeys(): OptionKeys {
  return Object.fromEntries(
    configTypes().map(([key, type]) => [key, schemaOf(type).optional()]),
  ) as unknown as OptionKeys;
}
type OptionKeys = {
  [K in keyof ConfigValues]-?: z.ZodOptional<z.ZodType<Exclude<ConfigValues[K], undefined>>>;
};

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
    // The keys of options (options.ts): classList, policies, failOn, protocolEra, the limits...
    ...optionKeys(),
    rules: z.record(z.string(), severitySchema).optional(),
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
    // Client rules (claude-settings.ts): the mapping (the files to check are an option's key).
    clientRules: z.unknown().optional(),
    mcpServers: z.record(z.string(), serverSchema).optional(),
  });
  return { env: envSchema, server: serverSchema, file: fileSchema };
});
type Schemas = ReturnType<typeof schemas>;

/** One server to audit, resolved. */
export interface ServerSettings {
  /** From configuration; when absent, the server's own reported name, normalised. */
  name?: string;
  /**
   * The key as the config writes it (`my.notes`), when normalising `name` changed it: clients
   * that keep a key as written (Gemini CLI, Qwen Code) match and name the tools by it.
   */
  key?: string;
  target: ServerTarget;
  era: EraSetting;
  /** How a person re-runs `update` for this server, for the drift message. */
  updateCommand?: string;
}

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

function expandHeaders(
  headers: Record<string, string>,
  where: string,
  file: string,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([k, v]) => [k, expandVars(v, `${where} header ${k}`, file)]),
  );
}

/**
 * What the command line (or the action's inputs) adds to every configured server: environment
 * entries and headers (which win over the entry's own), a working directory (which the entry's
 * own wins over).
 */
export interface EntryAdditions {
  env: Record<string, string>;
  cwd?: string | undefined;
  headers: Record<string, string>;
  /** The name --server-name gives the one server audited; else the entry's key names it. */
  name?: string | undefined;
}

/** How one server entry is read: the file it is in, the run's era, what the run adds to it. */
export interface EntryContext {
  file: string;
  /** The era of an entry that names none: the run's (see flagEra), else the file's, else legacy. */
  era: EraSetting;
  /**
   * The era the command line or the action's input gives. An entry's own protocolEra adds to it,
   * never narrows it (see entryEra): the file may be the PR's, which must not take an era out of
   * what the workflow asked to audit, nor the workflow one out of what the entry asks.
   */
  flagEra?: EraSetting | undefined;
  add: EntryAdditions;
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
  { file, add }: EntryContext,
): SpawnSpec {
  const command = expandVars(entry.command, `${where} command`, file);
  const args = entry.args.map((arg) => expandVars(arg, `${where} args`, file));
  const cwd = entry.cwd !== undefined ? expandVars(entry.cwd, `${where} cwd`, file) : add.cwd;
  return {
    command,
    args,
    ...(cwd !== undefined ? { cwd } : {}),
    env: { ...serverEnvironment(envFromConfig(entry.env, where, file)), ...add.env },
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

/** The keys of an HTTP server's `start:` entry (the command that launches it). */
const START_KEYS = ['command', 'args', 'cwd', 'env'];

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

/** The first key of `entry` not in `known`, as an error naming the key probably meant. */
function refuseUnknownKey(entry: object, known: string[], where: string, hint: string): void {
  const written = Object.keys(entry).find((k) => !known.includes(k));
  if (written === undefined) return;
  const meant = nearestKey(written, known, false);
  throw new AuditError(
    `${where} has an unknown key ${JSON.stringify(written)}${meant !== undefined ? `; did you mean ${JSON.stringify(meant)}?` : '.'}`,
    hint,
  );
}

/** A misspelt key in a server entry (`evn:`, `tpye:`) is an error naming the key meant. */
function checkServerKeys(key: string, entry: object, file: string): void {
  refuseUnknownKey(
    entry,
    [...SERVER_KEYS, ...IGNORED_SERVER_KEYS],
    `Server "${key}" in ${file}`,
    `A server entry has ${SERVER_KEYS.join(', ')}; keys other clients use (${IGNORED_SERVER_KEYS.join(', ')}) are accepted and ignored.`,
  );
}

/**
 * A misspelt key under an HTTP server's `start:` (`evn:`, `comand:`), in any server of the file,
 * is named before the schema would refuse it in its own words.
 */
function checkStartKeys(data: unknown, path: string): void {
  if (!isObject(data)) return;
  for (const list of [data.mcpServers, data.servers]) {
    if (!isObject(list)) continue;
    for (const [key, entry] of Object.entries(list))
      if (isObject(entry) && isObject(entry.start))
        refuseUnknownKey(
          entry.start,
          START_KEYS,
          `The start command of server "${key}" in ${path}`,
          `start has ${START_KEYS.join(', ')}: the command that launches the HTTP server, its arguments, working directory and environment.`,
        );
  }
}

/**
 * A key named `__proto__`, anywhere in the file, is refused: the schema's records drop it, so a
 * server (or an env variable, a header, a rule) keyed so would be left out of the run unseen.
 */
function refuseProtoKeys(data: unknown, path: string, at: string[]): void {
  if (Array.isArray(data)) {
    data.forEach((item, i) => refuseProtoKeys(item, path, [...at, String(i)]));
    return;
  }
  if (!isObject(data)) return;
  if (Object.hasOwn(data, '__proto__'))
    throw new AuditError(
      `The config file ${path} has a key "__proto__"${at.length ? ` under ${bound(at.join('.'), 200)}` : ''}: no key may be named so, since it would be left out unseen.`,
      'Rename it (a server key names the server in reports and in mcp__<server>__<tool>).',
    );
  for (const [key, value] of Object.entries(data)) refuseProtoKeys(value, path, [...at, key]);
}

/** An HTTP server's entry (url, headers, and the start command that launches it, if any). */
function httpServerFromConfig(
  key: string,
  entry: z.infer<Schemas['server']>,
  context: EntryContext,
): ServerTarget {
  const { file } = context;
  const where = `Server "${key}"`;
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
  return {
    kind: 'http',
    url: expandVars(entry.url, `${where} url`, file),
    headers: { ...expandHeaders(entry.headers ?? {}, where, file), ...context.add.headers },
    label: key,
    ...(entry.start ? { start: spawnFromConfig(entry.start, `${where} start`, context) } : {}),
  };
}

/** A server's era: its entry's and the run's both, where the two differ (legacy and modern: both). */
function entryEra(own: EraSetting | undefined, context: EntryContext): EraSetting {
  if (own === undefined) return context.era;
  return context.flagEra === undefined || context.flagEra === own ? own : 'both';
}

/** One server entry of a config file (or .mcp.json) as settings. */
export function serverFromConfig(
  key: string,
  entry: z.infer<Schemas['server']>,
  context: EntryContext,
): ServerSettings {
  const { file } = context;
  checkServerKeys(key, entry, file);
  const era = entryEra(entry.protocolEra, context);
  const where = `Server "${key}"`;
  // The class list's mcp__<server>__<tool> prefix takes the name as the client would.
  const written = context.add.name ?? key;
  const name = normalizeServerName(written);
  const named = { name, ...(written !== name ? { key: written } : {}) };
  if (entry.type === 'sse')
    throw new AuditError(
      `${where} in ${file} uses the old HTTP+SSE transport (type "sse"), which the auditor does not speak.`,
      'Give the Streamable HTTP endpoint (type "http", often at /mcp) if the server has one, or leave this server out with --server.',
    );
  if (entry.url !== undefined || entry.type === 'http' || entry.type === 'streamable-http')
    return { ...named, era, target: httpServerFromConfig(key, entry, context) };
  if (!entry.command)
    throw new AuditError(
      `${where} in ${file} has neither a command nor a url.`,
      'Give command (and args) for a stdio server, or url for Streamable HTTP.',
    );
  return {
    ...named,
    era,
    target: {
      kind: 'stdio',
      spawn: spawnFromConfig({ ...entry, command: entry.command }, where, context),
      label: key,
    },
  };
}

/** The yaml module, as ESM or (once bundled) as a CommonJS namespace with a default export. */
export async function loadYaml(): Promise<typeof import('yaml')> {
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

/** The YAML (or JSON) data of a config file's text; a syntax error says where, once. */
async function parseConfigText(text: string, path: string): Promise<unknown> {
  // Loaded only when there is a config file: most runs have none and need not pay for it.
  const yaml = await loadYaml();
  try {
    return yaml.parse(text) ?? {};
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
}

/** What the schema cannot say: rule ids that exist, expiry days that are real days. */
function checkRulesAndWaivers(config: ConfigFile, path: string): void {
  for (const rule of Object.keys(config.rules ?? {}))
    if (!isRuleId(rule))
      throw new AuditError(
        `The config file ${path} sets a severity for unknown rule "${rule}".`,
        `Known rules: ${RULE_IDS.join(', ')}.`,
      );
  for (const waiver of config.waivers ?? []) {
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
}

/**
 * Reads a config file (YAML; JSON such as .mcp.json is YAML too). `required` makes a missing file
 * an error; the default path may simply not exist. `read` defaults to the text as the early start
 * read it, before the server under audit ran (see trusted.ts).
 */
/** Each server key the file writes that normalising changes (`my.notes`), by its normalised name. */
export function writtenServerKeys(file: ConfigFile | undefined): Map<string, string> {
  const keys = new Map<string, string>();
  for (const key of Object.keys({ ...(file?.mcpServers ?? {}), ...(file?.servers ?? {}) }))
    if (normalizeServerName(key) !== key) keys.set(normalizeServerName(key), key);
  return keys;
}

/** The file lists servers (under `servers` or `mcpServers`). */
export function hasServers(file: ConfigFile): boolean {
  return Object.keys({ ...(file.mcpServers ?? {}), ...(file.servers ?? {}) }).length > 0;
}

/**
 * The config the run takes when `own` names no servers: its keys with the servers of the
 * project's .mcp.json (`project`); .mcp.json alone when there is no config file.
 */
export function withProjectServers(own: ConfigFile | undefined, project: ConfigFile): ConfigFile {
  if (!own) return project;
  return {
    ...own,
    ...(project.mcpServers ? { mcpServers: project.mcpServers } : {}),
    ...(project.servers ? { servers: project.servers } : {}),
  };
}

export async function readConfigFile(
  path: string,
  required: boolean,
  read: (path: string) => Promise<string> = readTrusted,
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
  const data = await parseConfigText(text, path);
  const fileSchema = schemas().file;
  refuseProtoKeys(data, path, []);
  checkTopLevelKeys(data, path, Object.keys(fileSchema.shape));
  checkStartKeys(data, path);
  const parsed = fileSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AuditError(
      `The config file ${path} has a bad value at ${issue?.path.join('.') || 'top level'}: ${issue?.message}.`,
      'See the README for the config file format.',
    );
  }
  checkRulesAndWaivers(parsed.data, path);
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
