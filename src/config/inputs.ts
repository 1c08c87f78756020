import type { EraSetting, Overrides } from './settings.js';
import { ERA_SETTINGS } from '../core/eras.js';
import { DEFAULT_CONFIG, POLICIES, type Policy } from './defaults.js';
import { AuditError } from '../errors.js';
import { splitCommand } from './command-line.js';
import { mergeSecrets, redactArgs, redactUrl, secretsOf, secretsOfEnv } from '../redact.js';
import { FAIL_ON_LEVELS, type FailOn } from '../core/rules.js';

/**
 * An input as the runner passes it (INPUT_<NAME>, spaces as underscores), trimmed; undefined when
 * empty. Read from `env` rather than with @actions/core's getInput: the early start (src/index.ts)
 * reads the inputs before any library is loaded, and the tests pass their own environment.
 */
export function getOptionalInput(
  name: string,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const value = (env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim();
  return value === '' ? undefined : value;
}

export type CommentMode = 'auto' | 'always' | 'never';

/** The action's inputs as one typed, validated object. */
export interface ActionInputs {
  overrides: Overrides;
  config: string;
  /** A config path the user named must exist; the default may not. */
  configRequired: boolean;
  mode: 'check' | 'update';
  comment: CommentMode;
  token?: string;
  prNumber?: number;
  workingDirectory?: string;
  sarifFile?: string;
  /** A JSON report of an earlier run to comment from, instead of auditing. */
  reportFile?: string;
  /** Claude Code settings files to check (claude-settings: newline- or comma-separated). */
  claudeSettings?: string[];
}

function invalid(input: string, value: string, expected: string): AuditError {
  return new AuditError(
    `Input "${input}" has the value "${value}", but it must be ${expected}.`,
    "Fix the step's with: block.",
  );
}

function oneOf<T extends string>(
  input: string,
  allowed: readonly T[],
  fallback: T,
  env: NodeJS.ProcessEnv,
): T {
  const value = getOptionalInput(input, env);
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value))
    throw invalid(input, value, `one of ${allowed.join(', ')}`);
  return value as T;
}

/** Lines of a multi-line input, blank lines and # comments skipped. */
function lines(input: string, env: NodeJS.ProcessEnv): string[] | undefined {
  const value = getOptionalInput(input, env);
  if (value === undefined) return undefined;
  return value
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
}

/**
 * The secrets in the inputs that reach a server, read leniently: they are masked in the log
 * before the inputs are checked, since an error about an input may quote it. The url's hidden
 * parts, each header's value (a line with no colon may be a bare credential: all of it), the
 * hidden words of the command and start command lines, and every value the env input gives (or
 * passes through by name from the action's own environment).
 */
export function inputSecrets(env: NodeJS.ProcessEnv = process.env): string[] {
  const headers: Record<string, string> = {};
  for (const [index, line] of (lines('headers', env) ?? []).entries()) {
    const colon = line.indexOf(':');
    headers[`${index}`] = colon < 0 ? line : line.slice(colon + 1);
  }
  const serverEnv: Record<string, string> = {};
  for (const [index, entry] of (lines('env', env) ?? []).entries()) {
    const eq = entry.indexOf('=');
    const value = eq < 0 ? env[entry] : entry.slice(eq + 1);
    if (value !== undefined) serverEnv[`${index}`] = value;
  }
  return mergeSecrets(
    secretsOf(getOptionalInput('url', env), headers),
    commandSecrets(getOptionalInput('command', env)),
    commandSecrets(getOptionalInput('start', env)),
    secretsOfEnv(serverEnv, () => false),
  );
}

/** The hidden words of a command line input; none when it does not parse (it is refused then). */
function commandSecrets(line: string | undefined): string[] {
  if (line === undefined) return [];
  try {
    return redactArgs(splitCommand(line)).secrets;
  } catch {
    // readInputs refuses a command that does not parse, quoting none of it.
    return [];
  }
}

/** What the inputs say about the servers and how to judge them, as settings take it. */
function readOverrides(env: NodeJS.ProcessEnv): Overrides {
  const overrides: Overrides = {};
  const command = getOptionalInput('command', env);
  const url = getOptionalInput('url', env);
  if (command !== undefined && url !== undefined)
    throw new AuditError(
      'Inputs "command" and "url" are both set.',
      'Give the stdio command or the HTTP url, not both.',
    );
  if (command !== undefined) {
    overrides.command = splitCommand(command);
    if (!overrides.command.length || !overrides.command[0])
      throw invalid(
        'command',
        redactArgs(overrides.command).shown.join(' '),
        'a command line such as "node server.js"',
      );
  }
  if (url !== undefined) {
    if (!/^https?:\/\//.test(url))
      throw invalid('url', redactUrl(url), 'an http:// or https:// URL');
    overrides.url = url;
  }
  const start = getOptionalInput('start', env);
  if (start !== undefined) {
    if (url === undefined)
      throw new AuditError(
        'Input "start" is set without "url".',
        'start launches the HTTP server named by url; set url too.',
      );
    overrides.start = splitCommand(start);
  }
  const headers = lines('headers', env);
  if (headers) overrides.headers = headers;
  const serverEnv = lines('env', env);
  if (serverEnv) overrides.env = serverEnv;
  const serverName = getOptionalInput('server-name', env);
  if (serverName !== undefined) overrides.serverName = serverName;
  const classList = getOptionalInput('class-list', env);
  if (classList !== undefined) overrides.classList = classList;
  const policies = getOptionalInput('policies', env);
  if (policies !== undefined) {
    const list = policies.split(/[\s,]+/).filter(Boolean);
    const bad = list.find((p) => !(POLICIES as readonly string[]).includes(p));
    if (bad !== undefined)
      throw invalid('policies', policies, `a comma-separated list of ${POLICIES.join(', ')}`);
    overrides.policies = list as Policy[];
  }
  const failOn = getOptionalInput('fail-on', env);
  if (failOn !== undefined)
    overrides.failOn = oneOf<FailOn>('fail-on', FAIL_ON_LEVELS, 'error', env);
  const era = getOptionalInput('protocol-era', env);
  if (era !== undefined)
    overrides.era = oneOf<EraSetting>('protocol-era', ERA_SETTINGS, 'legacy', env);
  const approveLabel = getOptionalInput('approve-label', env);
  if (approveLabel !== undefined) overrides.approveLabel = approveLabel;
  const servers = getOptionalInput('servers', env);
  if (servers !== undefined) overrides.only = servers.split(/[\s,]+/).filter(Boolean);
  const concurrency = getOptionalInput('concurrency', env);
  if (concurrency !== undefined) {
    if (!/^[1-9][0-9]{0,5}$/.test(concurrency))
      throw invalid('concurrency', concurrency, 'a whole number of servers such as 4');
    overrides.concurrency = Number(concurrency);
  }
  return overrides;
}

/** The action's inputs, each checked: a bad value is an error naming the input. */
export function readInputs(env: NodeJS.ProcessEnv = process.env): ActionInputs {
  const overrides = readOverrides(env);
  const config = getOptionalInput('config', env);
  const inputs: ActionInputs = {
    overrides,
    config: config ?? DEFAULT_CONFIG,
    // action.yml passes the default path when the workflow names none; only another path must exist.
    configRequired: config !== undefined && config !== DEFAULT_CONFIG,
    mode: oneOf('mode', ['check', 'update'], 'check', env),
    comment: oneOf<CommentMode>('comment', ['auto', 'always', 'never'], 'auto', env),
  };
  const token = getOptionalInput('github-token', env);
  if (token !== undefined) inputs.token = token;
  const pr = getOptionalInput('pr-number', env);
  if (pr !== undefined) {
    const n = Number(pr);
    if (!/^[1-9][0-9]*$/.test(pr) || !Number.isSafeInteger(n))
      throw invalid('pr-number', pr, 'a pull request number such as 42');
    inputs.prNumber = n;
  }
  const cwd = getOptionalInput('working-directory', env);
  if (cwd !== undefined) inputs.workingDirectory = cwd;
  const reportFile = getOptionalInput('report-file', env);
  if (reportFile !== undefined) {
    if (inputs.mode !== 'check')
      throw invalid(
        'report-file',
        reportFile,
        'used with mode: check (it comments from an earlier audit)',
      );
    inputs.reportFile = reportFile;
  }
  const sarif = getOptionalInput('sarif-file', env);
  if (sarif !== undefined) inputs.sarifFile = sarif;
  const claudeSettings = lines('claude-settings', env)?.flatMap((l) =>
    l.split(',').flatMap((p) => (p.trim() ? [p.trim()] : [])),
  );
  if (claudeSettings?.length) inputs.claudeSettings = claudeSettings;
  return inputs;
}
