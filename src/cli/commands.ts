// cli/: the command line around the same engine (arguments, commands, help, `rules`), its sinks
// the terminal and the files it writes. May import everything but action/
// (scripts/layers.mjs); only src/cli.ts imports cli/.
import { readFile } from 'node:fs/promises';
import { runAudit, type AuditOptions } from '../audit.js';
import { usableBase, type BaseText } from '../core/classlist.js';
import {
  type EraSetting,
  type Overrides,
  type Settings,
  updateCommandLine,
} from '../config/settings.js';
import {
  baseConfigPath,
  planSettings,
  readBasePlan,
  readRunConfig,
  type ConfigRead,
} from '../config/plan.js';
import { logicalCwd } from '../config/base-reader.js';
import { AuditError } from '../errors.js';
import type { Finding } from '../core/findings.js';
import { splitCommand } from '../config/command-line.js';
import { DEFAULT_CONFIG, POLICIES, type Policy } from '../config/defaults.js';
import { render } from '../report/render.js';
import { CLI_FORMATS, sarifOutput, type CliFormat } from './sarif-output.js';
import { FAIL_ON_LEVELS, type FailOn } from '../core/rules.js';
import { HELP, quickAnswer, type CliResult } from './help.js';
import { clientRulesInput } from '../config/client-settings.js';
import { parseCommandLine, usageError, type CommandLine } from './args.js';

/** A command line of list, check or update. */
type AuditLine = Exclude<CommandLine, { mode: 'rules' }>;

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

/** Refuses stray words, and options list or update would ignore. */
function checkArguments({ mode, values, positionals }: AuditLine): void {
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
}

/** The options that take one of a list of values, checked. */
function choicesOf({ mode, values }: AuditLine) {
  const format = (values.format ?? 'text') as CliFormat;
  // SARIF is for code scanning: only check has findings to upload.
  const formats = mode === 'check' ? CLI_FORMATS : CLI_FORMATS.filter((f) => f !== 'sarif');
  if (!formats.includes(format))
    throw usageError(
      `--format must be ${formats.slice(0, -1).join(', ')} or ${formats.at(-1)}, not "${format}"${format === 'sarif' ? ' (SARIF is for check, which reports findings)' : ''}.`,
      mode,
    );
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
  return { format, failOn, policies: policies as Policy[] | undefined, era };
}

/** Refuses options that cannot go together. */
function checkCombinations({ mode, values, server, dashdash }: AuditLine): void {
  if (server.length && values.url)
    throw usageError('Give either a command after -- or --url, not both.', mode);
  if (dashdash && !server.length)
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
}

/** What the options say about the servers and the audit, as settings take it. */
function overridesOf(line: AuditLine, choices: ReturnType<typeof choicesOf>): Overrides {
  const { mode, values, server } = line;
  const overrides: Overrides = {};
  if (server.length) overrides.command = server;
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
  if (choices.policies) overrides.policies = choices.policies;
  if (choices.failOn) overrides.failOn = choices.failOn;
  if (choices.era) overrides.era = choices.era;
  const limits = {
    startTimeoutMs: seconds(values['start-timeout'], '--start-timeout'),
    listTimeoutMs: seconds(values['list-timeout'], '--list-timeout'),
    maxPages: count(values['max-pages'], '--max-pages'),
    maxTools: count(values['max-tools'], '--max-tools'),
  };
  for (const [key, value] of Object.entries(limits))
    if (value !== undefined) Object.assign(overrides, { [key]: value });
  const concurrency = count(values.concurrency, '--concurrency');
  if (concurrency !== undefined) overrides.concurrency = concurrency;
  return overrides;
}

/** Warnings about options that change nothing in this run, said on stderr before the report. */
function warningsOf({ values, server }: AuditLine): string[] {
  const warnings: string[] = [];
  const direct = server.length ? '--' : values.url !== undefined ? '--url' : undefined;
  if (direct && values.server)
    warnings.push(
      `--server has no effect: it chooses among the servers of the config file, and this run audits the server given with ${direct}.`,
    );
  if (values.url !== undefined && values.start === undefined)
    for (const flag of ['env', 'cwd'] as const)
      if (values[flag] !== undefined)
        warnings.push(
          `--${flag} has no effect: it applies to a process the auditor starts, and --url without --start starts none.`,
        );
  for (const entry of values.env ?? [])
    if (!entry.includes('=') && process.env[entry] === undefined)
      warnings.push(
        `--env ${entry}: ${entry} is not set in this environment, so the server does not get it. Set it, or pass --env ${entry}=VALUE.`,
      );
  return warnings.map((text) => `warning: ${text}`);
}

/** The run's settings: the config file (else the project's .mcp.json), then the options. */
async function settingsOf(line: AuditLine, overrides: Overrides, notes: string[]) {
  const given = line.values.config;
  const config = await readRunConfig({
    path: given ?? DEFAULT_CONFIG,
    required: given !== undefined,
    direct: line.server.length > 0 || line.values.url !== undefined,
  });
  if (config.note) notes.push(config.note);
  const { settings, note } = await planSettings(config, overrides, 'cli');
  if (note) notes.push(note);
  return { config, settings };
}

type Checked = { base?: BaseText; warning?: string; findings?: Finding[] };

/**
 * The base to compare with: --base's file, or the base state at --base-ref (the plan's, as in
 * the action). A base that does not parse only warns (see usableBase), as in the action.
 */
async function baseOf(
  line: AuditLine,
  run: { config: ConfigRead; settings: Settings },
): Promise<Checked> {
  const { base, 'base-ref': ref } = line.values;
  if (base !== undefined) {
    let text: string;
    try {
      text = await readFile(base, 'utf8');
    } catch (error) {
      // A base that is not there is no "empty base": every dropped hint would pass unseen.
      throw new AuditError(
        `Could not read --base ${base}: ${(error as Error).message}.`,
        (error as NodeJS.ErrnoException).code === 'ENOENT'
          ? 'Pass the class list as it was at the base (git show <base>:<path> > base.json), or --base-ref <base> to read it from git.'
          : undefined,
      );
    }
    return usableBase({ text, label: base, file: base }, base);
  }
  if (ref === undefined) return {};
  return readBasePlan({
    ref,
    label: ref,
    cwd: await logicalCwd(),
    configPath: baseConfigPath(line.values.config),
    config: run.config,
    classList: run.settings.classList,
  });
}

/** What the audit is asked to do beyond the settings: the mode, the base, the client rules. */
async function auditOptionsOf(
  line: AuditLine,
  run: { config: ConfigRead; overrides: Overrides },
  checked: Checked,
): Promise<AuditOptions> {
  const { mode, values } = line;
  const options: AuditOptions = {
    mode,
    updateCommand: updateCommandLine(run.overrides, values.config),
    approved: values.approved ?? false,
  };
  if (values.prune) options.prune = true;
  if (checked.base) options.base = checked.base;
  if (mode === 'check') {
    const clientRules = await clientRulesInput(values.settings, run.config.file, run.config.path);
    if (clientRules) options.clientRules = clientRules;
  }
  if (checked.findings) options.baseFindings = checked.findings;
  return options;
}

/**
 * The CLI as a function of its arguments, so tests can call it without a process; `connect`
 * lets them reach the servers in memory too (see AuditOptions).
 */
export async function runCli(
  argv: string[],
  connect?: AuditOptions['connect'],
): Promise<CliResult> {
  const quick = quickAnswer(argv);
  if (quick) return quick;
  const line = parseCommandLine(argv);
  if (line.mode === 'rules') return (await import('./rules-command.js')).runRules(line.args);
  if (line.values.help) return { exitCode: 0, stdout: `${HELP[line.mode]}\n`, stderr: '' };
  checkArguments(line);
  const choices = choicesOf(line);
  checkCombinations(line);
  const overrides = overridesOf(line, choices);
  const notes = warningsOf(line);
  const { config, settings } = await settingsOf(line, overrides, notes);
  const checked = await baseOf(line, { config, settings });
  const options = await auditOptionsOf(line, { config, overrides }, checked);
  const { report, settled } = await runAudit(settings, connect ? { ...options, connect } : options);
  // As the action warns: once the audit has compared (if it failed first, nothing was).
  if (checked.warning) notes.push(`warning: ${checked.warning}`);
  // Rendered while the servers exit; returned once they are gone.
  const stdout =
    choices.format === 'sarif' ? await sarifOutput(report) : render(report, choices.format);
  await settled;
  return {
    exitCode: report.result === 'failed' ? 1 : 0,
    stdout,
    stderr: notes.map((note) => `mcp-annotation-auditor: ${note}\n`).join(''),
  };
}
