import { heldIn, stepCredentials, type Credential } from './credentials.js';
import { relative, resolve, sep } from 'node:path';
import { repositoryRoot, runnerTempRoot, writeConfined, type WriteRoot } from '../confined.js';
import * as core from '@actions/core';
import { logLine } from './log.js';
import { sentence } from '../core/text.js';
import { runAudit, type AuditOptions } from '../audit.js';
import { actionClientRules, writeRulesOutput, type ActionClientRules } from './client-rules.js';
import type { BaseRead } from '../config/base.js';
import { gitTopLevel, repoPathOf } from '../config/base-reader.js';
import { getOptionalInput } from '../config/inputs.js';
import {
  approvalLabelOf,
  baseConfigPath,
  planSettings,
  readBasePlan,
  type ApiAnswer,
} from '../config/plan.js';
import { secretsOfServers, type Settings } from '../config/settings.js';
import { AuditError, awaitedLater, getErrorMessage } from '../errors.js';
import { terminalSafe } from '../escape.js';
import { mergeSecrets } from '../redact.js';
import type { CommentTarget } from './comments.js';
import { renderJson, type FailedRun } from '../report/json.js';
import type { Report } from '../report/report.js';
import { readReportFile } from '../files.js';
import type { ActionContext } from './context.js';
import { within, type Known } from './failure.js';
import { stepFile } from './step-dir.js';
import { appendSummary, summaryOf } from './summary.js';
import type { GitHubClient, PullRequestInfo, RepoRef } from './github.js';
import { triggeringCommit, verifiedPull } from './workflowrun.js';
import type { Connect } from '../server/listing.js';
import { justificationsInput } from '../config/justifications-file.js';
import type { JustificationsInput } from '../core/justifications.js';
import { readTrusted } from '../trusted.js';

/** Step two of the action: the audit, or the report file an earlier audit wrote. */

/** What step two gives the publishing step. */
export interface Audited {
  report: Report;
  /** Only when this job audited: a report file's are not this job's. */
  settings?: Settings;
  /** The JSON report: written here, or the report file. */
  reportPath: string;
  /** The job summary of the report, rendered while the servers exit (see {@link summaryOf}). */
  summary?: string;
  /** The class list's path from the repository's root, for annotations and SARIF. */
  classListRepoPath: string;
  /** The PR the comments go on; a report-file job's, once verified. */
  target?: CommentTarget;
  prNumber?: number;
  /** What the comment says of the Claude Code rules of each changed tool (check with settings). */
  clientRules?: ActionClientRules['notes'];
  known: Known;
}

/** A report file that holds an audit that could not run. */
export interface GivenFailedRun {
  failedRun: FailedRun;
  reportPath: string;
  target?: CommentTarget;
  known: Known;
}

/** The directory the action's relative paths start from, as named: the working-directory input. */
function actionCwd(env: NodeJS.ProcessEnv): string {
  return resolve(
    env.GITHUB_WORKSPACE ?? process.cwd(),
    getOptionalInput('working-directory', env) ?? '.',
  );
}

/**
 * The path of a file relative to the repository's root, with forward slashes: the root git
 * reports (a checkout into a subfolder of the workspace has its own), else the workspace. The
 * path is taken as written, from the working-directory input as named: a symlink the PR
 * commits cannot move it (see repoPathOf).
 */
export async function repoRelative(path: string, env: NodeJS.ProcessEnv): Promise<string> {
  const cwd = actionCwd(env);
  const root = (await gitTopLevel(cwd)) ?? env.GITHUB_WORKSPACE ?? process.cwd();
  // Outside the repository (a class-list input given as an absolute path elsewhere): shown as a
  // path from the root all the same; only reads at the base refuse it.
  return repoPathOf(path, cwd, root).catch(() =>
    relative(root, resolve(cwd, path)).split(sep).join('/'),
  );
}

/**
 * A file at the base commit through the contents API (works with the default shallow checkout):
 * its text, null for GitHub's "not there" at that commit (proved, see getFileAt), undefined
 * without a token or when the API cannot read that commit, or what went wrong (a symlink or
 * folder, a file too large, an error): then git at the base commit decides.
 */
async function fromApi(context: ActionContext, repoPath: string, sha: string): Promise<ApiAnswer> {
  const { client, repo } = context;
  if (!client || !repo) return undefined;
  try {
    return await client.getFileAt(repo, repoPath, sha);
  } catch (error) {
    return { failed: getErrorMessage(error) };
  }
}

/**
 * The step's credentials are withheld from the servers under audit: a variable or header for a
 * server that holds one is withheld, with a warning; a command line or URL that holds one is
 * refused.
 */
function withholdCredentials(settings: Settings, credentials: Credential[]): void {
  for (const server of settings.servers) {
    const target = server.target;
    const spawn = target.kind === 'stdio' ? target.spawn : target.start;
    const words = spawn ? [spawn.command, ...spawn.args, spawn.cwd ?? ''] : [];
    if (target.kind === 'http') words.push(target.url);
    const held = heldIn(words, credentials);
    if (held)
      throw new AuditError(
        `The command line or URL of ${server.name !== undefined ? `server "${server.name}"` : 'the server'} holds ${held.what}: it would reach the server under audit, and the report.`,
        "Give the server what it needs through env (the env input, or env in the config file), which never passes the step's credentials (the github-token, the runner's ACTIONS_* values) on.",
      );
    for (const place of [spawn?.env, target.kind === 'http' ? target.headers : undefined])
      for (const [key, value] of Object.entries(place ?? {})) {
        const secret = heldIn([value], credentials);
        if (!secret) continue;
        delete place?.[key];
        core.warning(`${key} holds ${secret.what}; it was not passed to the server under audit.`);
      }
  }
}

/**
 * The PR's labels now. The event's are those of the moment it fired: a re-run of the job, or a
 * label added since, would not show. Read through the API when there is a token, else (or when
 * that fails, with a warning) the event's.
 */
async function currentLabels(
  client: GitHubClient | undefined,
  repo: RepoRef | undefined,
  pull: PullRequestInfo,
  fromEvent: boolean,
): Promise<string[]> {
  if (!client || !repo || !fromEvent) return pull.labels;
  try {
    return (await client.getPull(repo, pull.number)).labels;
  } catch (error) {
    core.warning(
      `Could not read the labels of PR #${pull.number} (${terminalSafe(getErrorMessage(error), 200)}); using those of the event that started this run.`,
    );
    return pull.labels;
  }
}

/**
 * A trusted workflow_run job: the audit ran in the PR's own workflow; only comment here. Which PR
 * comes from the event that started this job, checked against the API before anything is
 * written: never from the report, which the PR's own run wrote.
 */
async function fromReportFile(
  context: ActionContext,
  path: string,
  known: Known,
): Promise<Audited | GivenFailedRun> {
  const given = await readReportFile(path);
  const reportPath = resolve(path);
  const { commenting, inputs } = context;
  const pull = commenting
    ? await verifiedPull(
        commenting.client,
        commenting.repo,
        triggeringCommit(context.event),
        inputs.prNumber,
      )
    : undefined;
  const prNumber = pull?.number ?? context.prNumber;
  const target = commenting && pull ? { ...commenting, prNumber: pull.number } : undefined;
  if ('error' in given)
    return { failedRun: given, reportPath, ...(target ? { target } : {}), known };
  return {
    report: given,
    reportPath,
    classListRepoPath: given.classList,
    ...(target ? { target } : {}),
    ...(prNumber !== undefined ? { prNumber } : {}),
    known: {
      ...known,
      ...(target ? { target } : {}),
      servers: given.servers.map((s) => s.server),
      namesKnown: true,
      ...(given.policies ? { policies: given.policies } : {}),
      eraOf: (name) => given.servers.find((s) => s.server === name)?.era,
    },
  };
}

/** The settings, with what an error from here on knows: their servers, policies and secrets. */
async function settle(context: ActionContext, known: Known): Promise<[Settings, Known]> {
  const { inputs, config } = context;
  const { settings, note } = await planSettings(config, inputs.overrides, 'action');
  if (note) logLine(sentence(note));
  const configured = settings.servers;
  // Before the audit prints anything: the config's URLs and headers, variables expanded.
  const present = new Set(known.secrets);
  const more = secretsOfServers(configured).filter((secret) => !present.has(secret));
  for (const secret of more) core.setSecret(secret);
  const names = configured.flatMap((s) => (s.name !== undefined ? [s.name] : []));
  return [
    settings,
    {
      ...known,
      secrets: mergeSecrets(known.secrets, more),
      classListPath: settings.classList,
      servers: names,
      namesKnown: names.length === configured.length,
      ...(settings.policies ? { policies: settings.policies } : {}),
      // A server not named yet is the only one, or takes the era the inputs give.
      eraOf: (name) =>
        (
          configured.find((s) => s.name === name) ??
          (configured.length === 1 ? configured[0] : undefined)
        )?.era ?? inputs.overrides.era,
    },
  ];
}

/**
 * Whether the PR carries the approval label: the base commit's (see approvalLabelOf), known once
 * the base is read. The label found is what the comment names.
 */
async function approvedBy(
  context: ActionContext,
  settings: Settings,
  pull: PullRequestInfo,
  baseRead: Promise<BaseRead> | undefined,
): Promise<boolean> {
  const read = baseRead ? await baseRead : undefined;
  const { inputs, client, repo, pullFromEvent } = context;
  const { label, note } = approvalLabelOf(read, context.config.own, inputs.overrides.approveLabel);
  if (note) core.warning(note);
  if (label === undefined) delete settings.approveLabel;
  else settings.approveLabel = label;
  if (label === undefined) return false;
  return (await currentLabels(client, repo, pull, pullFromEvent)).includes(label);
}

/**
 * What runAudit is given: the base state and the approval label, both read while the server
 * boots and lists its tools (the audit waits for them only then).
 */
function auditOptions(
  context: ActionContext,
  settings: Settings,
  root: Promise<WriteRoot>,
): { options: AuditOptions; baseRead?: Promise<BaseRead> } {
  const { inputs, pull, base } = context;
  const options: AuditOptions = { mode: inputs.mode, updateCommand: context.updateCommand };
  // The class list update writes stays in the workspace, whatever working-directory leads to.
  if (inputs.mode === 'update') options.writeRoot = root;
  const baseRead =
    inputs.mode === 'check' && base && 'sha' in base
      ? readBaseAt(context, settings, base)
      : undefined;
  // Each awaited through the audit, once the server has listed: a failure before that (a base
  // commit the clone lacks fails at once) is the audit's error, not an unhandled rejection.
  if (baseRead) {
    void awaitedLater(baseRead);
    options.base = awaitedLater(baseRead.then((read) => read.base));
    options.baseFindings = awaitedLater(baseRead.then((read) => read.findings));
  }
  if (pull) options.approved = awaitedLater(approvedBy(context, settings, pull, baseRead));
  return { options, ...(baseRead ? { baseRead } : {}) };
}

/**
 * The base state at the base commit, by the plan the CLI uses too. A base that cannot be read
 * fails the audit (a dropped hint would pass unseen); one that does not parse must not block the
 * PR that repairs it, and only warns. Each path is asked of the contents API first, else git at
 * the base commit (fetched when the clone lacks it).
 */
function readBaseAt(
  context: ActionContext,
  settings: Settings,
  base: { sha: string; label: string; ofPull?: true },
): Promise<BaseRead> {
  const { inputs, env } = context;
  return readBasePlan({
    ref: base.sha,
    label: base.label,
    cwd: actionCwd(env),
    root: env.GITHUB_WORKSPACE ?? process.cwd(),
    configPath: baseConfigPath(inputs.config),
    config: context.config,
    classList: settings.classList,
    ...(settings.policies.includes('openai')
      ? { justifications: settings.justifications.path }
      : {}),
    fetch: true,
    api: (repoPath) => fromApi(context, repoPath, base.sha),
    ...(base.ofPull ? { apiNamedCommit: true } : {}),
  });
}

/** The hint justifications file (the openai policy on), as read before the server ran. */
async function actionJustifications(
  context: ActionContext,
  settings: Settings,
  baseRead: Promise<BaseRead> | undefined,
  root: Promise<WriteRoot>,
): Promise<JustificationsInput | undefined> {
  if (context.inputs.mode !== 'check') return undefined;
  const base = context.base;
  return justificationsInput(settings, {
    root: await root,
    read: readTrusted,
    ...(baseRead && base && 'sha' in base ? { base: { read: baseRead, label: base.label } } : {}),
  });
}

/** The audit of the configured servers; its JSON report is written for the `report` output. */
async function audit(
  context: ActionContext,
  settings: Settings,
  known: Known,
  connect: Connect | undefined,
): Promise<Audited> {
  const { inputs, env } = context;
  withholdCredentials(settings, stepCredentials(inputs.token, env));
  // git finds the repository's root while the server boots; only the base read waits for it.
  const repoPath = repoRelative(settings.classList, env);
  repoPath.catch(() => undefined);
  // The repository's root (where update writes, and the client files and justifications check
  // reads): asked of git once, beside the root of the class list's path.
  const root = repositoryRoot(env.GITHUB_WORKSPACE ?? process.cwd());
  root.catch(() => undefined);
  const { options, baseRead } = auditOptions(context, settings, root);
  const clientRules = await actionClientRules(
    context.inputs,
    context.config.file,
    context.config.path,
    (path) => repoRelative(path, env),
    root,
  );
  if (clientRules.check) options.clientRules = clientRules.check;
  if (connect) options.connect = connect;
  if (clientRules.clients) options.clients = clientRules.clients;
  const justifications = await actionJustifications(context, settings, baseRead, root);
  if (justifications) options.justifications = justifications;
  const { report, settled, classList } = await runAudit(settings, options);
  // The JSON report and the job summary are rendered while the servers exit; like everything
  // this step writes, they are written once the servers are gone, so that a server that lingers
  // cannot replace them.
  const json = renderJson(report);
  const summary = summaryOf(report);
  await settled;
  await writeRulesOutput(classList, clientRules.mapping, env);
  const classListRepoPath = await repoPath;
  // Said once the audit has compared: if it failed first, nothing was compared.
  const warning = baseRead && (await baseRead).warning;
  if (warning) core.warning(warning);
  const audited = report.servers;
  const after: Known = {
    ...known,
    servers: audited.map((s) => s.server),
    namesKnown: true,
    eraOf: (name) => audited.find((s) => s.server === name)?.era,
  };
  if (context.base && 'none' in context.base) {
    core.notice(context.base.none);
    appendSummary(`> ${context.base.none}\n`);
  }
  const reportPath = await within(after, async () => {
    const path = await stepFile(env, 'report.json', 'the report');
    await writeConfined(path, json, await runnerTempRoot(env), 'the report');
    return path;
  });
  return {
    report,
    settings,
    summary,
    reportPath,
    classListRepoPath,
    ...(context.target ? { target: context.target } : {}),
    ...(context.prNumber !== undefined ? { prNumber: context.prNumber } : {}),
    ...(clientRules.notes ? { clientRules: clientRules.notes } : {}),
    known: after,
  };
}

/**
 * Step two: the audit, or the report file of one that ran in the PR's own workflow. `connect`
 * reaches the servers (the default starts or fetches them).
 */
export async function auditOrReportFile(
  context: ActionContext,
  known: Known,
  connect?: Connect,
): Promise<Audited | GivenFailedRun> {
  if (context.inputs.reportFile) return fromReportFile(context, context.inputs.reportFile, known);
  const [settings, settled] = await settle(context, known);
  return within(settled, () => audit(context, settings, settled, connect));
}
