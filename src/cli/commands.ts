import { parseArgs } from 'node:util';
import { readFile } from 'node:fs/promises';
import { readAtRef, runAudit, type AuditOptions, type BaseText, type Mode } from '../audit.js';
import { usableBase } from '../core/classlist.js';
import {
  nameFromProject,
  nearestKey,
  readConfigFile,
  resolveSettings,
  type EraSetting,
  type Overrides,
  updateCommandLine,
} from '../config/settings.js';
import { readBaseState } from '../config/base.js';
import { AuditError } from '../errors.js';
import type { Finding } from '../core/findings.js';
import { splitCommand } from '../config/inputs.js';
import { DEFAULT_CONFIG, MCP_JSON, POLICIES, type Policy } from '../config/defaults.js';
import { render, type Format } from '../report/render.js';
import { FAIL_ON_LEVELS, type FailOn } from '../core/rules.js';
import { HELP, quickAnswer, type CliResult } from './help.js';
import { clientRulesInput } from './rules-command.js';

function usageError(message: string, command = 'main'): AuditError {
  return new AuditError(
    message,
    `Run mcp-annotation-auditor ${command === 'main' ? '' : `${command} `}--help for usage.`,
  );
}

/**
 * Flags only check acts on, with why list or update would ignore each: what would be silently
 * ignored is refused, so that no one believes a setting took effect.
 */
const IGNORED: Record<'list' | 'update', Partial<Record<string, string>>> = {
  list: {
    'fail-on': 'list does not pass or fail (it exits 0 unless the audit cannot run)',
    base: 'list compares the live server with no class list',
    'base-ref': 'list compares the live server with no class list',
    approved: 'list does not judge findings, so there is nothing to approve',
    settings: 'list does not judge client rules',
    prune: 'list writes no class list',
  },
  update: {
    'fail-on': 'update records the live tools and does not pass or fail on findings',
    policy: 'update checks no policies (it records the live tools as they are)',
    base: 'update writes the class list from the live server and compares it with no base',
    'base-ref': 'update writes the class list from the live server and compares it with no base',
    approved: 'update does not judge findings, so there is nothing to approve',
    settings: 'update writes the class list; rules --write writes client rules',
  },
};

/** The options of list, check and update, as parseArgs takes them. */
const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  format: { type: 'string' },
  policy: { type: 'string', multiple: true },
  'fail-on': { type: 'string' },
  'class-list': { type: 'string' },
  'server-name': { type: 'string' },
  server: { type: 'string', multiple: true },
  config: { type: 'string' },
  base: { type: 'string' },
  'base-ref': { type: 'string' },
  approved: { type: 'boolean' },
  prune: { type: 'boolean' },
  env: { type: 'string', multiple: true },
  cwd: { type: 'string' },
  url: { type: 'string' },
  start: { type: 'string' },
  header: { type: 'string', multiple: true },
  'protocol-era': { type: 'string' },
  'start-timeout': { type: 'string' },
  'list-timeout': { type: 'string' },
  'max-pages': { type: 'string' },
  'max-tools': { type: 'string' },
  settings: { type: 'string', multiple: true },
} as const;

const COMMANDS = ['list', 'check', 'update', 'rules'];

/**
 * Refuses what parseArgs would refuse, in words that lead to the fix: an unknown option with the
 * one probably meant, an option without its value, a value given to a switch.
 */
function checkOptions(args: string[], mode: Mode): void {
  const known = Object.keys(OPTIONS);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (!arg.startsWith('-') || arg === '-') continue;
    const long = arg.startsWith('--');
    const name = long ? (arg.slice(2).split('=')[0] ?? '') : arg.slice(1);
    const option = long ? known.find((k) => k === name) : name === 'h' ? 'help' : undefined;
    if (option === undefined) {
      const meant = nearestKey(name, known, false);
      throw usageError(
        `Unknown option ${arg.split('=')[0]}${meant !== undefined ? `; did you mean --${meant}?` : '.'}`,
        mode,
      );
    }
    const type = OPTIONS[option as keyof typeof OPTIONS].type;
    const inline = long && arg.includes('=');
    if (type === 'boolean' && inline)
      throw usageError(
        `--${option} is a switch and takes no value: write --${option} alone.`,
        mode,
      );
    if (type === 'string' && !inline) {
      const next = args[i + 1];
      if (next === undefined || next.startsWith('--'))
        throw usageError(
          `--${option} needs a value${next !== undefined ? ` (it is followed by the option ${next})` : ''}: write --${option} VALUE.`,
          mode,
        );
      i++;
    }
  }
}

function seconds(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0)
    throw usageError(`${flag} must be a positive number of seconds, not "${value}".`);
  return Math.round(n * 1000);
}

function count(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0)
    throw usageError(`${flag} must be a positive whole number, not "${value}".`);
  return n;
}

/** The CLI as a function of its arguments, so tests can call it without a process. */
export async function runCli(argv: string[]): Promise<CliResult> {
  const dashdash = argv.indexOf('--');
  const own = dashdash < 0 ? argv : argv.slice(0, dashdash);
  const serverCommand = dashdash < 0 ? [] : argv.slice(dashdash + 1);
  const command = own[0];
  const quick = quickAnswer(argv);
  if (quick) return quick;
  if (command === 'rules') return (await import('./rules-command.js')).runRules(argv.slice(1));
  if (command !== 'list' && command !== 'check' && command !== 'update') {
    const meant = nearestKey(command ?? '', COMMANDS, false);
    throw usageError(
      `Unknown command "${command}"${meant !== undefined ? `; did you mean ${meant}?` : `: use ${COMMANDS.join(', ')}.`}`,
    );
  }
  const mode: Mode = command;
  checkOptions(own.slice(1), mode);
  let values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: own.slice(1),
      allowPositionals: true,
      strict: true,
      options: OPTIONS,
    }));
  } catch (error) {
    throw usageError((error as Error).message, mode);
  }
  if (values.help) return { exitCode: 0, stdout: `${HELP[mode]}\n`, stderr: '' };
  if (positionals.length)
    throw usageError(
      `Unexpected argument "${positionals[0]}". Put the server's command after --, e.g. ${mode} -- node server.js.`,
      mode,
    );
  if (mode !== 'check')
    for (const [flag, why] of Object.entries(IGNORED[mode]))
      if (values[flag as keyof typeof values] !== undefined)
        throw usageError(
          `--${flag} would be ignored: ${why}. Give it to check, or leave it out.`,
          mode,
        );
  const format = (values.format ?? 'text') as Format;
  if (!['text', 'json', 'markdown'].includes(format))
    throw usageError(`--format must be text, json or markdown, not "${format}".`, mode);
  const failOn = values['fail-on'] as FailOn | undefined;
  if (failOn !== undefined && !FAIL_ON_LEVELS.includes(failOn))
    throw usageError(`--fail-on must be error, warning, notice or never, not "${failOn}".`, mode);
  const policies = values.policy
    ?.flatMap((p) => p.split(','))
    .map((p) => p.trim())
    .filter(Boolean);
  const badPolicy = policies?.find((p) => !(POLICIES as readonly string[]).includes(p));
  if (badPolicy !== undefined)
    throw usageError(`Unknown policy "${badPolicy}": use ${POLICIES.join(', ')}.`, mode);
  const era = values['protocol-era'] as EraSetting | undefined;
  if (era !== undefined && !['legacy', 'modern', 'both'].includes(era))
    throw usageError(`--protocol-era must be legacy, modern or both, not "${era}".`, mode);
  if (serverCommand.length && values.url)
    throw usageError('Give either a command after -- or --url, not both.', mode);
  if (dashdash >= 0 && !serverCommand.length)
    throw usageError('Nothing follows --: give the server command.', mode);
  if (mode === 'check' && values.prune !== undefined)
    throw usageError(
      '--prune would be ignored: check writes no class list. Give it to update, or leave it out.',
      mode,
    );
  if (values.prune && values.server)
    throw usageError(
      '--prune removes the entries of every server this run does not audit, and --server audits only some: give one or the other.',
      mode,
    );
  if (values.base !== undefined && values['base-ref'] !== undefined)
    throw usageError('Give --base or --base-ref, not both.', mode);

  const overrides: Overrides = {};
  if (serverCommand.length) overrides.command = serverCommand;
  if (values.url !== undefined) overrides.url = values.url;
  if (values.start !== undefined) {
    if (values.url === undefined)
      throw usageError(
        '--start needs --url: it launches the HTTP server before it is audited.',
        mode,
      );
    overrides.start = splitCommand(values.start);
  }
  if (values.header) overrides.headers = values.header;
  if (values.env) overrides.env = values.env;
  if (values.cwd !== undefined) overrides.cwd = values.cwd;
  if (values['server-name'] !== undefined) overrides.serverName = values['server-name'];
  if (values.server) overrides.only = values.server;
  if (values['class-list'] !== undefined) overrides.classList = values['class-list'];
  if (policies) overrides.policies = policies as Policy[];
  if (failOn) overrides.failOn = failOn;
  if (era) overrides.era = era;
  const limits = {
    startTimeoutMs: seconds(values['start-timeout'], '--start-timeout'),
    listTimeoutMs: seconds(values['list-timeout'], '--list-timeout'),
    maxPages: count(values['max-pages'], '--max-pages'),
    maxTools: count(values['max-tools'], '--max-tools'),
  };
  for (const [key, value] of Object.entries(limits))
    if (value !== undefined) Object.assign(overrides, { [key]: value });

  // Said on stderr before the report: options that change nothing here, and where servers came from.
  const notes: string[] = [];
  const warn = (text: string) => notes.push(`mcp-annotation-auditor: warning: ${text}\n`);
  const direct = serverCommand.length ? '--' : values.url !== undefined ? '--url' : undefined;
  if (direct && values.server)
    warn(
      `--server has no effect: it chooses among the servers of the config file, and this run audits the server given with ${direct}.`,
    );
  if (values.url !== undefined && values.start === undefined)
    for (const flag of ['env', 'cwd'] as const)
      if (values[flag] !== undefined)
        warn(
          `--${flag} has no effect: it applies to a process the auditor starts, and --url without --start starts none.`,
        );
  for (const entry of values.env ?? [])
    if (!entry.includes('=') && process.env[entry] === undefined)
      warn(
        `--env ${entry}: ${entry} is not set in this environment, so the server does not get it. Set it, or pass --env ${entry}=VALUE.`,
      );

  let configPath = values.config ?? DEFAULT_CONFIG;
  let file = await readConfigFile(configPath, values.config !== undefined);
  // Nothing says what to audit: the project's .mcp.json does, as it does for Claude Code.
  if (!file && values.config === undefined && !direct) {
    file = await readConfigFile(MCP_JSON, false);
    if (file) {
      configPath = MCP_JSON;
      notes.push(`mcp-annotation-auditor: servers from ${MCP_JSON} (no ${DEFAULT_CONFIG})\n`);
    }
  }
  const settings = resolveSettings(file, configPath, overrides);
  const key = await nameFromProject(settings, overrides.command);
  if (key !== undefined)
    notes.push(
      `mcp-annotation-auditor: server name "${settings.servers[0]?.name}": its key in ${MCP_JSON}, which has this command line\n`,
    );

  const options: AuditOptions = {
    mode,
    updateCommand: updateCommandLine(overrides, values.config),
    approved: values.approved ?? false,
  };
  if (values.prune) options.prune = true;
  // A base that does not parse only warns (see usableBase), as in the action.
  let checked: { base?: BaseText; warning?: string; findings?: Finding[] } = {};
  if (values.base !== undefined) {
    let text: string;
    try {
      text = await readFile(values.base, 'utf8');
    } catch (error) {
      // A base that is not there is no "empty base": every dropped hint would pass unseen.
      throw new AuditError(
        `Could not read --base ${values.base}: ${(error as Error).message}.`,
        (error as NodeJS.ErrnoException).code === 'ENOENT'
          ? 'Pass the class list as it was at the base (git show <base>:<path> > base.json), or --base-ref <base> to read it from git.'
          : undefined,
      );
    }
    checked = usableBase({ text, label: values.base, file: values.base }, values.base);
  } else if (values['base-ref'] !== undefined) {
    const ref = values['base-ref'];
    // The class list where REF's config puts it, and REF's config against today's.
    checked = await readBaseState({
      read: (path) => readAtRef(ref, path),
      label: ref,
      configPath,
      headConfig: file,
      headClassList: settings.classList,
    });
  }
  if (checked.base) options.base = checked.base;
  if (mode === 'check') {
    const clientRules = await clientRulesInput(values.settings, file, configPath);
    if (clientRules) options.clientRules = clientRules;
  }
  if (checked.findings) options.baseFindings = checked.findings;
  const report = await runAudit(settings, options);
  return {
    exitCode: report.result === 'failed' ? 1 : 0,
    stdout: render(report, format),
    // As the action warns: once the audit has compared (if it failed first, nothing was).
    stderr: `${notes.join('')}${checked.warning ? `mcp-annotation-auditor: warning: ${checked.warning}\n` : ''}`,
  };
}
