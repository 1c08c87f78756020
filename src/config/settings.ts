// config/: where the run's settings come from (the config file, action inputs, the command line,
// the nearest config, the base commit's config) and resolveSettings, which makes them one typed
// Settings. Reads files. May import core/, server/ (spawn specs, limits), clients/ (settings
// formats), git.ts, files.ts, confined.ts and the shared leaves; never audit.ts, report/,
// action/ or cli/ (scripts/layers.mjs).
import { availableParallelism } from 'node:os';
import { normalizeServerName } from '../core/classlist.js';
import {
  DEFAULT_CLASS_LIST,
  DEFAULT_CONFIG,
  DEFAULT_JUSTIFICATIONS,
  MCP_JSON,
  type Policy,
} from './defaults.js';
import { AuditError } from '../errors.js';
import { DEFAULT_LIMITS, type ListLimits, type ServerTarget } from '../server/listing.js';
import type { EraSetting } from '../core/eras.js';
import { DEFAULT_POLICIES } from '../core/policies.js';
import type { Waiver } from '../core/waivers.js';
import type { FailOn, RuleId, Severity } from '../core/rules.js';
import { parseEnvEntries, serverEnvironment } from '../server/process.js';
import { mergeSecrets, REDACTED, redactArgs, redactUrl } from '../redact.js';
import { secretsOfTarget } from '../server/secrets.js';
import { NPX_COMMAND } from '../version.js';
import { directSpawn } from './command-line.js';
import type { SettingValues } from './options.js';
import {
  readConfigFile,
  projectKeyOf,
  serverFromConfig,
  type ConfigFile,
  type EntryContext,
  type ServerSettings,
} from './file.js';

/*
 * The run's settings: the config file's (file.ts), overridden by the command line or the
 * action's inputs, resolved into the servers to audit and how to judge them.
 */

export type { EraSetting };

// A waiver is core/'s (what applies it); kept here too for the config readers.
export type { Waiver };
// One server's settings are made by file.ts (serverFromConfig).
export type { ServerSettings };

export interface Settings {
  servers: ServerSettings[];
  classList: string;
  /** OpenAI's hint justifications file; `named` when an option or the config names it. */
  justifications: { path: string; named: boolean };
  policies: Policy[];
  failOn: FailOn;
  severities: Partial<Record<RuleId, Severity | 'off'>>;
  waivers: Waiver[];
  approveLabel?: string;
  limits: ListLimits;
  /** The most servers audited at once. */
  concurrency: number;
  /** Only some of the configured servers are audited (--server): others' entries are left alone. */
  partial: boolean;
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

/**
 * What the command line (or the action's inputs) says; every field optional, flags win. One field
 * per row of the option table that is a setting (options.ts): the limits in seconds, as written.
 */
export type Overrides = SettingValues;

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
  const cwd = o.cwd !== undefined ? redactArgs([o.cwd]) : undefined;
  if (cwd) args.push('--cwd', ...cwd.shown);
  if (o.era !== undefined && o.era !== 'legacy') args.push('--protocol-era', o.era);
  // This command reaches reports and PR comments: the URL (whose path may hold a key) becomes a
  // placeholder, and a command line shows only the words of a safe shape, the rest ***.
  if (o.url !== undefined) args.push('--url', URL_PLACEHOLDER);
  const start = o.start?.length ? redactArgs(o.start) : undefined;
  if (start) args.push('--start', start.shown.map(shellQuote).join(' '));
  const command = o.command?.length ? redactArgs(o.command) : undefined;
  if (command) args.push('--', ...command.shown);
  const line = args.map(shellQuote).join(' ');
  // A shell comment: the line still runs as it is, once the placeholders are filled in.
  const notes: string[] = [];
  if (o.url !== undefined) notes.push(`replace ${URL_PLACEHOLDER} with the server's URL`);
  if ([start, command, cwd].some((words) => words?.shown.includes(REDACTED) === true))
    notes.push(REDACTED_NOTE);
  return notes.length ? `${line} # ${notes.join('; ')}` : line;
}

/** Stands for the server's URL in an update command. */
export const URL_PLACEHOLDER = '<url>';

/** Said after an update command whose command line lost its secrets. */
const REDACTED_NOTE = `replace each ${REDACTED} with the secret it stands for`;

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
  if (key !== undefined) {
    server.name = normalizeServerName(key);
    if (server.name !== key) server.key = key;
  }
  return key;
}

/** Where the run's servers come from, in the words of the CLI or of the action's inputs. */
export type Surface = 'cli' | 'action';

/** The one server given directly: a command line after -- (the command input), or a URL. */
function directServer(flags: Overrides, era: EraSetting): ServerSettings | undefined {
  let target: ServerTarget;
  if (flags.command?.length) target = { kind: 'stdio', spawn: directSpawn(flags.command, flags) };
  else if (flags.url) {
    if (!/^https?:\/\//i.test(flags.url))
      throw new AuditError(
        `--url must be an http:// or https:// URL, not "${redactUrl(flags.url)}".`,
        'Give the Streamable HTTP endpoint, e.g. --url http://127.0.0.1:3000/mcp.',
      );
    target = { kind: 'http', url: flags.url, headers: parseHeaders(flags.headers ?? []) };
    if (flags.start?.length) target.start = directSpawn(flags.start, flags);
  } else return undefined;
  const written = flags.serverName;
  const name = written !== undefined ? normalizeServerName(written) : undefined;
  return {
    ...(name !== undefined ? { name } : {}),
    ...(written !== undefined && written !== name ? { key: written } : {}),
    era,
    target,
  };
}

/**
 * The servers of the config file (or .mcp.json), those --server chose, each built with what the
 * command line adds to it: its environment, working directory and headers, and the name
 * --server-name gives the one server audited.
 */
function configuredServers(
  file: ConfigFile | undefined,
  filePath: string,
  flags: Overrides,
  era: EraSetting,
): ServerSettings[] {
  const both = Object.keys(file?.mcpServers ?? {}).find((n) =>
    Object.hasOwn(file?.servers ?? {}, n),
  );
  if (both !== undefined)
    throw new AuditError(
      `Server "${both}" is in both mcpServers and servers of ${filePath}.`,
      'Keep one entry for it: the two may differ, and only one can be audited under that name.',
    );
  const entries = { ...(file?.mcpServers ?? {}), ...(file?.servers ?? {}) };
  const unknown = (flags.only ?? []).filter((n) => !Object.hasOwn(entries, n));
  if (unknown.length)
    throw new AuditError(
      `No server named ${unknown.map((n) => `"${n}"`).join(', ')} in ${filePath}.`,
      `Configured servers: ${Object.keys(entries).join(', ') || 'none'}.`,
    );
  const chosen = Object.entries(entries).filter(
    ([name]) => !flags.only?.length || flags.only.includes(name),
  );
  const context: EntryContext = {
    file: filePath,
    era,
    flagEra: flags.era,
    add: {
      headers: parseHeaders(flags.headers ?? []),
      env: serverEnvironment(parseEnvEntries(flags.env ?? []), process.env, false),
      cwd: flags.cwd,
      name: chosen.length === 1 ? flags.serverName : undefined,
    },
  };
  const servers = chosen.map(([name, entry]) => serverFromConfig(name, entry, context));
  // One name for one server: the only one configured, or the one --server chose.
  if (flags.serverName !== undefined && servers.length > 1)
    throw new AuditError(
      `--server-name (the server-name input) names one server, but this run audits ${servers.length} servers of ${filePath}.`,
      'Name servers by their config keys (each key is the <server> in mcp__<server>__<tool>): rename a key, or choose one server with --server.',
    );
  return servers;
}

/** Refuses a run whose flags reach no server (headers with no HTTP server), or with no server. */
function checkServers(servers: ServerSettings[], flags: Overrides, surface: Surface): void {
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
}

function classListOf(file: ConfigFile | undefined, filePath: string, flags: Overrides): string {
  const classList = flags.classList ?? file?.classList ?? DEFAULT_CLASS_LIST;
  if (!classList.trim())
    throw new AuditError(
      flags.classList !== undefined
        ? '--class-list is empty.'
        : `classList in ${filePath} is empty.`,
      `Give the path of the class list file, or leave it out for ${DEFAULT_CLASS_LIST}.`,
    );
  return classList;
}

/** The hint justifications file: the option's, else the config's, else the default path. */
function justificationsOf(
  file: ConfigFile | undefined,
  flags: Overrides,
): Settings['justifications'] {
  const named = flags.justifications ?? file?.justifications;
  return named !== undefined && named.trim()
    ? { path: named, named: true }
    : { path: DEFAULT_JUSTIFICATIONS, named: false };
}

/** The listing's bounds: flags, else the file's (both in seconds), else the defaults. */
function limitsOf(file: ConfigFile | undefined, flags: Overrides): ListLimits {
  const ms = (seconds: number | undefined, fallback: number) =>
    seconds !== undefined ? Math.round(seconds * 1000) : fallback;
  return {
    startTimeoutMs: ms(flags.startTimeout ?? file?.startTimeout, DEFAULT_LIMITS.startTimeoutMs),
    listTimeoutMs: ms(flags.listTimeout ?? file?.listTimeout, DEFAULT_LIMITS.listTimeoutMs),
    maxPages: flags.maxPages ?? file?.maxPages ?? DEFAULT_LIMITS.maxPages,
    maxTools: flags.maxTools ?? file?.maxTools ?? DEFAULT_LIMITS.maxTools,
  };
}

/**
 * Two servers per core, and at least four: a server's start-up is mostly waiting (loading
 * modules, reaching its backend), so servers beyond the cores still overlap. On a 2-core runner
 * four servers that each wait a second before serving took 1.0–1.2 × one of them four at a time
 * and 1.7–1.9 × two at a time, while four that keep a core busy as they boot took no longer four
 * at a time than two (`npm run bench -- --only concurrency`).
 */
export function defaultConcurrency(cores = availableParallelism()): number {
  return Math.max(4, 2 * cores);
}

/** Flags override the file; the file overrides defaults. */
export function resolveSettings(
  file: ConfigFile | undefined,
  filePath: string,
  flags: Overrides,
  surface: Surface = 'cli',
): Settings {
  const era: EraSetting = flags.era ?? file?.protocolEra ?? 'legacy';
  // Refused first, whichever server they would reach.
  parseEnvEntries(flags.env ?? []);
  const direct = directServer(flags, era);
  const servers = direct ? [direct] : configuredServers(file, filePath, flags, era);
  checkServers(servers, flags, surface);
  const approveLabel = flags.approveLabel ?? file?.approveLabel;
  return {
    servers,
    partial: Boolean(flags.only?.length),
    classList: classListOf(file, filePath, flags),
    justifications: justificationsOf(file, flags),
    // Once each: a profile named twice (--policy openai,openai) would report each finding twice.
    policies: [...new Set(flags.policies ?? file?.policies ?? DEFAULT_POLICIES)],
    failOn: flags.failOn ?? file?.failOn ?? 'error',
    severities: file?.rules ?? {},
    waivers: (file?.waivers ?? []) as Waiver[],
    limits: limitsOf(file, flags),
    concurrency: flags.concurrency ?? file?.concurrency ?? defaultConcurrency(),
    ...(approveLabel !== undefined ? { approveLabel } : {}),
  };
}

/**
 * The secrets of the servers' settings, for masking and redaction: each HTTP server's URL (the
 * parts of it not shown) and header values; each command line's hidden words; every value of a
 * server's environment the user gave (see secretsOfTarget).
 */
export function secretsOfServers(servers: ServerSettings[]): string[] {
  return mergeSecrets(...servers.map((s) => secretsOfTarget(s.target)));
}
