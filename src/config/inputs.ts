import type { Overrides } from './settings.js';
import { DEFAULT_CONFIG } from './defaults.js';
import { AuditError } from '../errors.js';
import { splitCommand } from './command-line.js';
import { mergeSecrets, redactArgs, secretsOf, secretsOfEnv } from '../redact.js';
import { ROWS, settingValues, type InputSpec, type OptionValues } from './options.js';

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

/** The items of an input that lists several values, written as its row says (InputSpec.list). */
function itemsOf(value: string, list: NonNullable<InputSpec['list']>): string[] {
  if (list === 'words') return value.split(/[\s,]+/).filter(Boolean);
  const lines = value
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  return list === 'lines'
    ? lines
    : lines.flatMap((l) => l.split(',').flatMap((p) => (p.trim() ? [p.trim()] : [])));
}

/** Lines of a multi-line input, blank lines and # comments skipped. */
function lines(input: string, env: NodeJS.ProcessEnv): string[] | undefined {
  const value = getOptionalInput(input, env);
  return value === undefined ? undefined : itemsOf(value, 'lines');
}

/** The variables the env input names (`NAME`, passed through, or `NAME=value`): the workflow's. */
export function envInputNames(env: NodeJS.ProcessEnv = process.env): string[] {
  return (lines('env', env) ?? []).map((entry) => {
    const eq = entry.indexOf('=');
    return eq < 0 ? entry : entry.slice(0, eq);
  });
}

/**
 * Every input given, read by its row's kind (options.ts), by option id: a value the kind refuses
 * is an error naming the input and what it must be, the value shown without its secrets.
 */
export function inputValues(env: NodeJS.ProcessEnv = process.env): OptionValues {
  const values: Record<string, unknown> = {};
  for (const row of ROWS) {
    if (!row.input) continue;
    const value = getOptionalInput(row.input.name, env);
    if (value === undefined) continue;
    const texts = row.input.list ? itemsOf(value, row.input.list) : [value];
    if (!texts.length) continue;
    const read = row.kind.parse(texts);
    if ('refused' in read)
      throw invalid(row.input.name, row.kind.shown(value), row.kind.expected.input);
    values[row.id] = read.value;
  }
  return values;
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
function readOverrides(values: OptionValues): Overrides {
  if (values.command !== undefined && values.url !== undefined)
    throw new AuditError(
      'Inputs "command" and "url" are both set.',
      'Give the stdio command or the HTTP url, not both.',
    );
  if (values.start !== undefined && values.url === undefined)
    throw new AuditError(
      'Input "start" is set without "url".',
      'start launches the HTTP server named by url; set url too.',
    );
  return settingValues(values);
}

/** The action's inputs, each checked: a bad value is an error naming the input. */
export function readInputs(env: NodeJS.ProcessEnv = process.env): ActionInputs {
  const values = inputValues(env);
  const overrides = readOverrides(values);
  const config = values.config;
  const inputs: ActionInputs = {
    overrides,
    config: config ?? DEFAULT_CONFIG,
    // action.yml passes the default path when the workflow names none; only another path must exist.
    configRequired: config !== undefined && config !== DEFAULT_CONFIG,
    mode: values.mode ?? 'check',
    comment: values.comment ?? 'auto',
  };
  if (values.token !== undefined) inputs.token = values.token;
  if (values.prNumber !== undefined) inputs.prNumber = values.prNumber;
  if (values.workingDirectory !== undefined) inputs.workingDirectory = values.workingDirectory;
  if (values.reportFile !== undefined) {
    if (inputs.mode !== 'check')
      throw invalid(
        'report-file',
        values.reportFile,
        'used with mode: check (it comments from an earlier audit)',
      );
    inputs.reportFile = values.reportFile;
  }
  if (values.sarifFile !== undefined) inputs.sarifFile = values.sarifFile;
  if (values.settings?.length) inputs.claudeSettings = values.settings;
  return inputs;
}
