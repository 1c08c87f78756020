// cli/: the command line around the same engine (arguments, commands, help, `rules`), its sinks
// the terminal and the files it writes. May import everything but action/
// (scripts/layers.mjs); only src/cli.ts imports cli/.
import { readFile } from 'node:fs/promises';
import { runAudit, type AuditOptions } from '../audit.js';
import { usableBase, type BaseText } from '../core/classlist.js';
import { type Overrides, type Settings, updateCommandLine } from '../config/settings.js';
import {
  baseConfigPath,
  planSettings,
  readBasePlan,
  readRunConfig,
  type ConfigRead,
} from '../config/plan.js';
import { logicalCwd } from '../config/base-reader.js';
import { forgetTopLevels, withGit, type Git } from '../git.js';
import { AuditError } from '../errors.js';
import { repositoryRoot, type WriteRoot } from '../confined.js';
import type { Finding } from '../core/findings.js';
import { DEFAULT_CONFIG } from '../config/defaults.js';
import { settingValues } from '../config/options.js';
import type { Mode } from '../report/report.js';
import { render } from '../report/render.js';
import { sarifOutput } from './sarif-output.js';
import { HELP, quickAnswer, type CliResult } from './help.js';
import { clientRulesInput, clientsInput } from '../config/client-settings.js';
import { justificationsInput } from '../config/justifications-file.js';
import type { BaseRead } from '../config/base.js';
import { parseCommandLine, usageError, type CommandLine } from './args.js';

/** A command line of list, check or update. */
type AuditLine = CommandLine & { mode: Mode };

/** Refuses stray words: the server's command goes after --. */
function checkArguments({ mode, positionals }: AuditLine): void {
  if (positionals.length)
    throw usageError(
      `Unexpected argument "${positionals[0]}". Put the server's command after --, e.g. ${mode} -- node server.js.`,
      mode,
    );
}

/** Refuses options that cannot go together. */
function checkCombinations({ mode, values, server, dashdash }: AuditLine): void {
  if (server.length && values.url)
    throw usageError('Give either a command after -- or --url, not both.', mode);
  if (dashdash && !server.length)
    throw usageError('Nothing follows --: give the server command.', mode);
  if (values.prune && values.only)
    throw usageError(
      '--prune removes the entries of every server this run does not audit, and --server audits only some: give one or the other.',
      mode,
    );
  if (values.base !== undefined && values.baseRef !== undefined)
    throw usageError('Give --base or --base-ref, not both.', mode);
  if (values.start !== undefined && values.url === undefined)
    throw usageError(
      '--start needs --url: it launches the HTTP server before it is audited.',
      mode,
    );
}

/** What the options say about the servers and the audit, as settings take it. */
function overridesOf({ values, server }: AuditLine): Overrides {
  const overrides = settingValues(values);
  if (server.length) overrides.command = server;
  return overrides;
}

/** Warnings about options that change nothing in this run, said on stderr before the report. */
function warningsOf({ values, server }: AuditLine): string[] {
  const warnings: string[] = [];
  const direct = server.length ? '--' : values.url !== undefined ? '--url' : undefined;
  if (direct && values.only)
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

type Checked = {
  base?: BaseText;
  warning?: string;
  findings?: Finding[];
  justifications?: BaseRead['justifications'];
};

/**
 * The base to compare with: --base's file, or the base state at --base-ref (the plan's, as in
 * the action). A base that does not parse only warns (see usableBase), as in the action.
 */
async function baseOf(
  line: AuditLine,
  run: { config: ConfigRead; settings: Settings },
): Promise<Checked> {
  const { base, baseRef: ref } = line.values;
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
    return await usableBase({ text, label: base, file: base }, base);
  }
  if (ref === undefined) return {};
  return readBasePlan({
    ref,
    label: ref,
    cwd: await logicalCwd(),
    configPath: baseConfigPath(line.values.config),
    config: run.config,
    classList: run.settings.classList,
    ...(run.settings.policies.includes('openai')
      ? { justifications: run.settings.justifications.path }
      : {}),
  });
}

/**
 * What the audit is asked to do beyond the settings: the mode, the base, the client rules. `root`
 * is the repository's root, asked of git once, as the run starts (see runCommand).
 */
async function auditOptionsOf(
  line: AuditLine,
  run: { config: ConfigRead; overrides: Overrides; settings: Settings },
  checked: Checked,
  root: Promise<WriteRoot> | undefined,
): Promise<AuditOptions> {
  const { mode, values } = line;
  const options: AuditOptions = {
    mode,
    updateCommand: updateCommandLine(run.overrides, values.config),
    approved: values.approved ?? false,
  };
  if (values.prune) options.prune = true;
  if (checked.base) options.base = checked.base;
  if (mode === 'check' && root) {
    const clientRules = await clientRulesInput(values.settings, run.config.file, run.config.path);
    if (clientRules) options.clientRules = clientRules;
    const clients = await clientsInput(run.config.file, run.config.path, { root: await root });
    if (clients) options.clients = clients;
    const ref = values.baseRef;
    const justifications = await justificationsInput(run.settings, {
      root: await root,
      ...(ref !== undefined ? { base: { read: Promise.resolve(checked), label: ref } } : {}),
    });
    if (justifications) options.justifications = justifications;
  }
  if (checked.findings) options.baseFindings = checked.findings;
  return options;
}

/**
 * What a caller in code may set besides the arguments: how each server is reached (see
 * AuditOptions) and the git the base and the repository's root are read through (see git.ts).
 * Tests run the CLI in one process with servers and a clone in memory through them.
 */
export interface CliSeams {
  connect?: AuditOptions['connect'];
  git?: Git;
}

/** The CLI as a function of its arguments, so tests can call it without a process. */
export function runCli(argv: string[], seams: CliSeams = {}): Promise<CliResult> {
  forgetTopLevels();
  return seams.git
    ? withGit(seams.git, () => runCommand(argv, seams.connect))
    : runCommand(argv, seams.connect);
}

async function runCommand(argv: string[], connect: AuditOptions['connect']): Promise<CliResult> {
  const quick = quickAnswer(argv);
  if (quick) return quick;
  const line = parseCommandLine(argv);
  if (line.values.help) return { exitCode: 0, stdout: `${HELP[line.mode]}\n`, stderr: '' };
  if (line.mode === 'rules') return (await import('./rules-command.js')).runRules(line);
  if (line.mode === 'justifications')
    return (await import('./justifications-command.js')).runJustifications(line);
  const audit = line as AuditLine;
  checkArguments(audit);
  checkCombinations(audit);
  const overrides = overridesOf(audit);
  const notes = warningsOf(audit);
  // check reads the client files and justifications below the repository's root: git is asked
  // for it once, now, beside the reading of the config (it was asked twice, one after the other,
  // once the config was read, while a server that answers at once waited).
  const root = audit.mode === 'check' ? repositoryRoot() : undefined;
  root?.catch(() => undefined);
  const { config, settings } = await settingsOf(audit, overrides, notes);
  const checked = await baseOf(audit, { config, settings });
  const options = await auditOptionsOf(audit, { config, overrides, settings }, checked, root);
  const { report, settled } = await runAudit(settings, connect ? { ...options, connect } : options);
  // As the action warns: once the audit has compared (if it failed first, nothing was).
  if (checked.warning) notes.push(`warning: ${checked.warning}`);
  // Rendered while the servers exit; returned once they are gone.
  const format = audit.values.format ?? 'text';
  const stdout = format === 'sarif' ? await sarifOutput(report) : render(report, format);
  await settled;
  return {
    exitCode: report.result === 'failed' ? 1 : 0,
    stdout,
    stderr: notes.map((note) => `mcp-annotation-auditor: ${note}\n`).join(''),
  };
}
