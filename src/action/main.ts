import { mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import {
  appendSummary,
  getOptionalInput,
  issueAnnotation,
  type AnnotationLevel,
  type AnnotationProperties,
  setOutput,
  setSecret,
  SUMMARY_LIMIT,
} from './actions.js';
import { allFindings, keyedFindings, runAudit, type AuditOptions, type Report } from '../audit.js';
import { readBaseState, type BaseRead } from '../config/base.js';
import { parseClassList, toolLines } from '../core/classlist.js';
import {
  commentMarker,
  renderComment,
  renderRetiredComment,
  serverFailed,
  serverComments,
  serverMarker,
  variantOf,
  upsertComment,
  type CommentContext,
  type CommentTarget,
} from '../report/comment.js';
import {
  nameFromProject,
  readConfigFile,
  type EraSetting,
  resolveSettings,
  secretsOfServers,
  shellQuote,
  updateCommandLine,
  waiverLines,
  type Settings,
  type Waiver,
} from '../config/settings.js';
import { AuditError, describeError, getErrorMessage } from '../errors.js';
import { findingText, type Finding } from '../core/findings.js';
import { readText, type EarlyStart } from '../prestart.js';
import { git, gitShow } from '../git.js';
import { codeSpanSafe, linesSafe, markdownSafe, terminalSafe } from '../escape.js';
import {
  GitHubClient,
  GitHubError,
  pullInfo,
  type PullPayload,
  type PullRequestInfo,
  type RepoRef,
} from './github.js';
import { DEFAULT_CLASS_LIST, MCP_JSON, type Policy } from '../config/defaults.js';
import { inputSecrets, readInputs, type ActionInputs } from '../config/inputs.js';
import { mergeSecrets, redactText } from '../redact.js';
import {
  codeBlock,
  renderFailedRun,
  renderJson,
  renderMarkdown,
  reportCounts,
  verdictLine,
  type FailedRun,
} from '../report/render.js';
import { bySeverity } from '../core/rules.js';
import { readReportFile } from '../files.js';
import { renderSarif } from '../report/sarif.js';
import { VERSION } from '../version.js';
import { triggeringCommit, verifiedPull } from './workflowrun.js';

const MAX_ANNOTATIONS = 50;

function readRepo(env: NodeJS.ProcessEnv): RepoRef | undefined {
  const [owner, repo] = (env.GITHUB_REPOSITORY ?? '').split('/');
  return owner && repo ? { owner, repo } : undefined;
}

/**
 * The event, and the pull request it is about, if any. An event that cannot be read, or whose
 * pull_request lacks its number or base commit, is taken as no pull request, with a warning.
 */
async function readEvent(
  path: string | undefined,
  early: EarlyStart | undefined,
): Promise<{ event?: unknown; pull?: PullRequestInfo }> {
  if (!path) return {};
  let event: unknown;
  try {
    event = JSON.parse(await readText(path, early));
  } catch (error) {
    issueAnnotation(
      'warning',
      `The event file ${path} could not be read as JSON (${terminalSafe(getErrorMessage(error), 200)}); this run is taken as not being about a pull request.`,
    );
    return {};
  }
  const pull = (event as { pull_request?: unknown } | null)?.pull_request;
  if (pull === undefined || pull === null) return { event };
  const payload = pull as Partial<PullPayload>;
  if (
    typeof payload.number !== 'number' ||
    !Number.isSafeInteger(payload.number) ||
    typeof payload.base?.sha !== 'string'
  ) {
    issueAnnotation(
      'warning',
      `The event's pull_request has no number or base commit; this run is taken as not being about a pull request.`,
    );
    return { event };
  }
  return { event, pull: pullInfo(payload as PullPayload) };
}

/** Writes the SARIF file, its folder too; a path that cannot be written fails the step, later. */
async function writeSarif(path: string, sarif: string): Promise<void> {
  try {
    await mkdir(dirname(resolve(path)), { recursive: true });
    await writeFile(path, sarif);
  } catch (error) {
    issueAnnotation(
      'error',
      `Could not write the SARIF file ${terminalSafe(path, 200)} (input sarif-file): ${terminalSafe(getErrorMessage(error), 200)}. The summary and outputs are written; fix the path.`,
    );
    process.exitCode = 1;
  }
}

/**
 * The class list at the PR's base commit: through the API (works with the default shallow
 * checkout), else from git, fetching that one commit if needed. Null when the file did not exist.
 */
async function readBase(
  client: GitHubClient | undefined,
  repo: RepoRef | undefined,
  repoPath: string,
  sha: string,
): Promise<string | null> {
  let apiError: unknown;
  if (client && repo) {
    try {
      return await client.getFileAt(repo, repoPath, sha);
    } catch (error) {
      apiError = error;
    }
  }
  try {
    await git(['cat-file', '-e', `${sha}^{commit}`]).catch(() =>
      git(['fetch', '--no-tags', '--depth=1', 'origin', sha]),
    );
    return await gitShow(`${sha}:${repoPath}`);
  } catch (error) {
    throw new AuditError(
      `Could not read ${repoPath} at the base commit ${sha.slice(0, 12)}: ${apiError ? `${getErrorMessage(apiError)}; ` : ''}${getErrorMessage(error)}. Without it, what this PR changes in the class list (a dropped hint, say) cannot be checked.`,
      "Re-run the job. If it fails again, give the job a token that can read the repository's contents (permissions: contents: read), or check out with fetch-depth: 0.",
    );
  }
}

/** Makes the working-directory input the current directory, or says why it cannot. */
function enter(dir: string, input: string): void {
  try {
    process.chdir(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new AuditError(
      `Input "working-directory" is "${input}", but ${dir} ${code === 'ENOENT' ? 'does not exist' : code === 'ENOTDIR' ? 'is not a directory' : `cannot be entered (${code ?? getErrorMessage(error)})`}.`,
      "It is relative to the workspace (the repository's root after actions/checkout); fix the step's with: block.",
    );
  }
}

/**
 * The path of a file relative to the repository's root, with forward slashes: the root git
 * reports (a checkout into a subfolder of the workspace has its own), else the workspace. Both
 * sides are real paths, so a symlinked workspace cannot put the file outside the root.
 */
async function repoRelative(path: string, env: NodeJS.ProcessEnv): Promise<string> {
  const real = (p: string) => realpath(p).catch(() => p);
  const top = await git(['rev-parse', '--show-toplevel']).then(
    (out) => out.trim(),
    () => '',
  );
  const root = await real(top || (env.GITHUB_WORKSPACE ?? process.cwd()));
  const full = resolve(path);
  return relative(root, join(await real(dirname(full)), basename(full)))
    .split(sep)
    .join('/');
}

/** Whether the inputs say which server to audit (else the config file at its default path does). */
function namesServer(inputs: ActionInputs): boolean {
  return Boolean(inputs.overrides.command ?? inputs.overrides.url ?? inputs.configRequired);
}

function updateCommandFor(inputs: ActionInputs): string {
  const command = updateCommandLine(
    inputs.overrides,
    inputs.configRequired ? inputs.config : undefined,
  );
  return inputs.workingDirectory
    ? `cd ${shellQuote(inputs.workingDirectory)} && ${command}`
    : command;
}

/** The config file's waivers and where each is written, for annotations about them. */
export interface WaiverPlaces {
  /** The config file's path from the repository's root. */
  file: string;
  waivers: Waiver[];
  /** The line of each waiver (see waiverLines); 0 where unknown. */
  lines: number[];
}

export interface Annotation {
  level: AnnotationLevel;
  message: string;
  props: AnnotationProperties;
}

/**
 * Workflow annotations on the class-list lines of the tools concerned, most severe first; a stale
 * waiver's on the config file, at the waiver, which is what to fix (the class list has no line
 * for it).
 */
export function annotationsOf(
  report: Report,
  classListText: string | undefined,
  file: string,
  config?: WaiverPlaces,
): Annotation[] {
  const found = keyedFindings(report).filter(({ finding }) => !finding.waived);
  found.sort((a, b) => bySeverity(a.finding, b.finding));
  const shown = found.slice(0, MAX_ANNOTATIONS);
  // Lines are looked up only for the findings shown (the class list may hold 10,000 tools).
  const lines =
    classListText !== undefined && shown.some(({ key }) => key !== undefined)
      ? toolLines(classListText)
      : undefined;
  // Stale waivers come in the order the waivers are written: each takes the first of its tool
  // (and rule, which its message names) not taken yet.
  const taken = new Set<number>();
  const waiverAt = (f: Finding): AnnotationProperties | undefined => {
    if (!config || f.rule !== 'stale-waiver') return undefined;
    const free = (i: number) => !taken.has(i);
    const same = config.waivers.flatMap((w, i) => (w.tool === f.tool && free(i) ? [i] : []));
    const index = same.find((i) => f.message.includes(` ${config.waivers[i]?.rule} `)) ?? same[0];
    if (index !== undefined) taken.add(index);
    const line = index !== undefined ? config.lines[index] : undefined;
    return { file: config.file, line: line || 1 };
  };
  const out: Annotation[] = shown.map(({ finding: f, key }) => {
    const line = key !== undefined ? lines?.get(key) : undefined;
    const place =
      waiverAt(f) ??
      // A client-rule finding points at the settings file's rule.
      f.location ??
      (classListText !== undefined ? { file, line: line ?? 1 } : undefined);
    return {
      level: f.severity,
      message: findingText(f),
      props: { ...place, title: `mcp-annotation-auditor: ${f.rule}` },
    };
  });
  if (found.length > MAX_ANNOTATIONS)
    out.push({
      level: 'notice',
      message: `${found.length - MAX_ANNOTATIONS} more findings are in the job summary and the JSON report.`,
      props: {},
    });
  return out;
}

/** The config file's waivers with their lines, when the run found a stale one to point at. */
async function waiverPlaces(
  report: Report,
  settings: Settings,
  configPath: string,
  configText: string | undefined,
  env: NodeJS.ProcessEnv,
): Promise<WaiverPlaces | undefined> {
  if (configText === undefined || !report.findings.some((f) => f.rule === 'stale-waiver'))
    return undefined;
  return {
    file: await repoRelative(configPath, env),
    waivers: settings.waivers,
    lines: await waiverLines(configText),
  };
}

async function postComments(
  report: Report,
  context: CommentContext,
  mode: ActionInputs['comment'],
  target: CommentTarget,
  summaryUrl: string | undefined,
): Promise<{ ids: number[]; notes: string[] }> {
  const ids: number[] = [];
  const notes: string[] = [];
  for (const server of report.servers) {
    const body = renderComment(server, {
      ...context,
      ...(summaryUrl !== undefined ? { summaryUrl } : {}),
    });
    const create =
      mode === 'always' ||
      server.changes.length > 0 ||
      serverFailed(server, context.failOn, context.runFindings);
    try {
      const marker = serverMarker(server, context);
      const result = await upsertComment(target, server.server, marker, body, create);
      if (result.id !== undefined) ids.push(result.id);
      // Into the job summary: the name may come from a report file, untrusted.
      notes.push(
        `Comment for ${markdownSafe(server.server, 64)}: ${result.action}${result.id !== undefined ? ` (#${result.id})` : ''}.`,
      );
    } catch (error) {
      // The pass/fail follows the findings, never the comment.
      const status = error instanceof GitHubError ? error.status : undefined;
      const message =
        status === 403 || status === 401 || status === 404
          ? `Could not comment on PR #${target.prNumber} (HTTP ${status}): the token may not write to this pull request, as on pull requests from forks. The full report is in this job summary; see the README for the workflow_run setup that comments on fork PRs.`
          : `Could not comment on PR #${target.prNumber}: ${getErrorMessage(error)}. The full report is in this job summary.`;
      issueAnnotation(status === undefined || status >= 500 ? 'warning' : 'notice', message);
      notes.push(message);
    }
  }
  // The comments of servers the base records under a name no longer audited: renamed or removed.
  const retired: [string, string | undefined][] = [
    ...report.servers.flatMap((s): [string, string][] =>
      s.renamedFrom !== undefined ? [[s.renamedFrom, s.server]] : [],
    ),
    ...(report.removedServers ?? []).map((name): [string, undefined] => [name, undefined]),
  ];
  for (const [server, now] of retired) {
    const failed =
      now === undefined
        ? report.result === 'failed'
        : serverFailed(
            report.servers.find((s) => s.server === now) as Report['servers'][number],
            context.failOn,
            context.runFindings,
          );
    // The retired server's comment of this run's configuration (policies, and the era of the
    // server that now stands for it).
    const era = report.servers.find((s) => s.server === now)?.era;
    const marker = commentMarker(server, { ...variantOf(context), ...(era ? { era } : {}) });
    const result = await upsertComment(
      target,
      server,
      marker,
      renderRetiredComment(marker, server, now, failed),
      false,
    ).catch(() => undefined);
    // Into the job summary: the names may come from a report file, untrusted.
    if (result?.action === 'updated')
      notes.push(
        `Comment for ${markdownSafe(server, 64)}: updated (#${result.id}), ${now !== undefined ? `now audited as ${markdownSafe(now, 64)}` : 'no longer audited'}.`,
      );
  }
  return { ids, notes };
}

/**
 * The token is for the comment alone. A variable or header for the server that holds it is
 * withheld, with a warning; a command line or URL that holds it is refused.
 */
function withholdToken(settings: Settings, token: string): void {
  for (const server of settings.servers) {
    const target = server.target;
    const spawn = target.kind === 'stdio' ? target.spawn : target.start;
    const words = spawn ? [spawn.command, ...spawn.args, spawn.cwd ?? ''] : [];
    if (target.kind === 'http') words.push(target.url);
    if (words.some((word) => word.includes(token)))
      throw new AuditError(
        `The command line or URL of ${server.name !== undefined ? `server "${server.name}"` : 'the server'} holds the github-token: it would reach the server under audit, and the report.`,
        'Give the server what it needs through env (the env input, or env in the config file), which never passes the github-token on.',
      );
    for (const place of [spawn?.env, target.kind === 'http' ? target.headers : undefined])
      for (const [key, value] of Object.entries(place ?? {}))
        if (value.includes(token)) {
          delete place?.[key];
          issueAnnotation(
            'warning',
            `${key} holds the github-token; it was not passed to the server under audit.`,
          );
        }
  }
}

function summaryUrlOf(env: NodeJS.ProcessEnv): string | undefined {
  return env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID
    ? `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`
    : undefined;
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
    issueAnnotation(
      'warning',
      `Could not read the labels of PR #${pull.number} (${terminalSafe(getErrorMessage(error), 200)}); using those of the event that started this run.`,
    );
    return pull.labels;
  }
}

/** The servers a class list records; none when it cannot be read. */
async function recordedServers(path: string): Promise<string[]> {
  try {
    const list = parseClassList(await readFile(path, 'utf8'), path);
    return [...new Set([...list.tools.values()].map((r) => r.server))];
  } catch {
    return [];
  }
}

/**
 * An error for the job summary or a comment: what failed as a paragraph, and the server's own
 * words (`details`: stderr, a response body) as a code block, line by line as it printed them.
 */
function errorMarkdown(
  message: string,
  details: string | undefined,
  redact: (text: string) => string,
): string {
  const text = markdownSafe(redact(message), 2_000);
  return details ? `${text}\n\n${codeBlock(redact(details).slice(0, 4_000)).join('\n')}` : text;
}

/**
 * When the audit cannot run, an existing sticky comment must not keep showing an old green state:
 * it is updated (never created) to say so. An error from any layer may quote a server's URL or
 * headers: `secrets` are redacted first, before escaping could hide them from the match.
 */
export async function markCommentsFailed(
  target: CommentTarget,
  servers: readonly string[],
  message: string,
  secrets: readonly string[] = [],
  markerOf?: (server: string) => string,
  details?: string,
): Promise<void> {
  const text = errorMarkdown(message, details, (t) => redactText(t, secrets));
  const body = (server: string, marker: string) =>
    `${marker}\n### ❌ MCP tool annotations for \`${codeSpanSafe(server, 64)}\`: the audit could not run\n\n${text}\n\nSee the job log for details.\n`;
  const { client, repo, prNumber } = target;
  const comments = await client.listComments(repo, prNumber).catch(() => []);
  // Without the run's policies and era (the config could not be read), each of the server's
  // comments is marked: which run's it is cannot be told.
  for (const server of servers)
    for (const { comment, marker } of serverComments(comments, server, markerOf?.(server)))
      await client.updateComment(repo, comment.id, body(server, marker)).catch(() => undefined);
}

/**
 * A report-file job given the report of an audit that could not run: the PR's comments say so,
 * and this job, which did its own part, passes. The message is the untrusted run's: escaped.
 */
async function commentFailedRun(
  run: FailedRun,
  target: CommentTarget | undefined,
  reportPath: string,
): Promise<void> {
  appendSummary(
    `### MCP tool annotations: the PR's audit could not run\n\n${markdownSafe(run.error, 2_000)}\n`,
  );
  setOutput('result', 'error');
  setOutput('report', reportPath);
  setOutput('comment-id', '');
  issueAnnotation('warning', `The PR's audit could not run: ${linesSafe(run.error, 2_000)}`);
  if (target)
    await markCommentsFailed(
      target,
      run.servers.map((s) => s.server),
      run.error,
      [],
      markersOf(run.policies, (server) => run.servers.find((s) => s.server === server)?.era),
    );
}

const variantEra = (era: EraSetting | undefined) => (era !== undefined ? { era } : {});

/**
 * Each server's marker in a run with these policies and eras; undefined while the policies are
 * not known (nor, then, the eras), when every variant of a server's marker counts.
 */
function markersOf(
  policies: Policy[] | undefined,
  eraOf: (server: string) => EraSetting | undefined,
): ((server: string) => string) | undefined {
  return (
    policies && ((server) => commentMarker(server, { policies, ...variantEra(eraOf(server)) }))
  );
}

/**
 * The report of an audit that could not run, so that a job commenting from it (report-file)
 * marks the PR's comments failed; its path is the `report` output. A path that cannot be
 * written only warns: the step fails on the error already.
 */
async function writeFailedRun(run: FailedRun, env: NodeJS.ProcessEnv): Promise<void> {
  const path = join(env.RUNNER_TEMP ?? tmpdir(), 'mcp-annotation-auditor', 'report.json');
  try {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, renderFailedRun(run));
    setOutput('report', path);
  } catch (error) {
    issueAnnotation(
      'warning',
      `Could not write the report ${path}: ${terminalSafe(getErrorMessage(error), 200)}.`,
    );
  }
}

/**
 * The action: inputs -> audit (or a report file) -> summary, outputs, annotations, comment.
 * `early` is what the entry did before loading this (see src/index.ts): the server it started,
 * and the files it read before that server ran.
 */
export async function run(env: NodeJS.ProcessEnv = process.env, early?: EarlyStart): Promise<void> {
  let target: CommentTarget | undefined;
  // The servers whose comments an error marks: named in the config, or once the audit has
  // named them all; until then, also those the class list records.
  let serverNames: string[] = [];
  let namesKnown = false;
  // With each server's name, what picks its comment's marker (see commentMarker), once known.
  let policies: Policy[] | undefined;
  let eraOf: (server: string) => EraSetting | undefined = () => undefined;
  let classListPath: string | undefined;
  // Masked before anything can print it: an input error may quote a value that holds it.
  const token = getOptionalInput('github-token', env);
  if (token) setSecret(token);
  // So are the url and headers inputs' secrets; the config file's, once it is read.
  let secrets = inputSecrets(env);
  for (const secret of secrets) setSecret(secret);
  // Masking matches the token as printed; escaping for markdown would hide it from the mask.
  const redact = (text: string) =>
    redactText(token ? text.split(token).join('***') : text, secrets);
  try {
    const inputs = readInputs(env);
    const updateCommand = updateCommandFor(inputs);
    const workspace = env.GITHUB_WORKSPACE ?? process.cwd();
    if (inputs.workingDirectory && !early?.enteredWorkingDirectory)
      enter(resolve(workspace, inputs.workingDirectory), inputs.workingDirectory);
    const repo = readRepo(env);
    const client = inputs.token ? new GitHubClient(inputs.token, env.GITHUB_API_URL) : undefined;
    const read = await readEvent(env.GITHUB_EVENT_PATH, early);
    let pull = read.pull;
    let pullFromEvent = pull !== undefined;
    // A report-file job takes its PR from the event, checked below; it reads no base.
    if (!inputs.reportFile && inputs.prNumber !== undefined && pull?.number !== inputs.prNumber) {
      pull = undefined;
      pullFromEvent = false;
      if (client && repo)
        pull = await client.getPull(repo, inputs.prNumber).catch((error: unknown) => {
          issueAnnotation(
            'warning',
            `Could not read PR #${inputs.prNumber}: ${getErrorMessage(error)}. Comparing with the class list at HEAD only.`,
          );
          return undefined;
        });
    }
    let prNumber = inputs.prNumber ?? pull?.number;
    const commenting = client && repo && inputs.comment !== 'never' ? { client, repo } : undefined;
    if (commenting && prNumber !== undefined && !inputs.reportFile)
      target = { ...commenting, prNumber };
    // Read after the comment target is known: a config file that is wrong marks the comment.
    classListPath = inputs.overrides.classList ?? DEFAULT_CLASS_LIST;
    // Its text is kept: annotations about a waiver point at the line it is written on.
    let configText: string | undefined;
    let configPath = inputs.config;
    let file = await readConfigFile(
      inputs.config,
      inputs.configRequired,
      async (path) => (configText = await readText(path, early)),
    );
    // No config file, no command, no url: the project's .mcp.json lists the servers.
    if (!file && !inputs.configRequired && !inputs.overrides.command && !inputs.overrides.url) {
      file = await readConfigFile(
        MCP_JSON,
        false,
        async (path) => (configText = await readText(path, early)),
      );
      if (file) {
        configPath = MCP_JSON;
        process.stdout.write(`Servers from ${MCP_JSON} (there is no ${inputs.config}).\n`);
      }
    }

    let report: Report;
    let settings: Settings | undefined;
    let reportPath: string;
    let classListRepoPath: string;
    if (inputs.reportFile) {
      // A trusted workflow_run job: the audit ran in the PR's own workflow; only comment here.
      const given = await readReportFile(inputs.reportFile);
      reportPath = resolve(inputs.reportFile);
      // Which PR comes from the event that started this job, checked against the API before
      // anything is written: never from the report, which the PR's own run wrote.
      if (commenting) {
        const { client: c, repo: r } = commenting;
        prNumber = (await verifiedPull(c, r, triggeringCommit(read.event), inputs.prNumber)).number;
        target = { ...commenting, prNumber };
      }
      if ('error' in given) return await commentFailedRun(given, target, reportPath);
      report = given;
      policies = report.policies;
      eraOf = (name) => given.servers.find((s) => s.server === name)?.era;
      classListRepoPath = report.classList;
      serverNames = report.servers.map((s) => s.server);
      namesKnown = true;
    } else {
      settings = resolveSettings(file, configPath, inputs.overrides, 'action');
      const key = await nameFromProject(settings, inputs.overrides.command, (path) =>
        readText(path, early),
      );
      if (key !== undefined)
        process.stdout.write(
          `Server name "${settings.servers[0]?.name}": its key in ${MCP_JSON}, which has this command line.\n`,
        );
      const configured = settings.servers;
      policies = settings.policies;
      // A server not named yet is the only one, or takes the era the inputs give.
      eraOf = (name) =>
        (
          configured.find((s) => s.name === name) ??
          (configured.length === 1 ? configured[0] : undefined)
        )?.era ?? inputs.overrides.era;
      // Before the audit prints anything: the config's URLs and headers, variables expanded.
      const known = new Set(secrets);
      const more = secretsOfServers(settings.servers).filter((secret) => !known.has(secret));
      for (const secret of more) setSecret(secret);
      secrets = mergeSecrets(secrets, more);
      classListPath = settings.classList;
      serverNames = settings.servers.flatMap((s) => (s.name !== undefined ? [s.name] : []));
      namesKnown = serverNames.length === settings.servers.length;
      if (inputs.token) withholdToken(settings, inputs.token);
      // git finds the repository's root while the server boots; only the base read waits for it.
      const repoPath = repoRelative(settings.classList, env);
      const options: AuditOptions = { mode: inputs.mode, updateCommand };
      // Read while the server boots and lists its tools: the audit waits for it only then.
      let baseRead: Promise<BaseRead> | undefined;
      if (inputs.mode === 'check' && pull) {
        const baseSha = pull.baseSha;
        // A base that cannot be read fails the audit (a dropped hint would pass unseen); one
        // that does not parse must not block the PR that repairs it, and only warns. The class
        // list is read where the base commit's config puts it, and that config is compared.
        baseRead = readBaseState({
          read: async (path) => readBase(client, repo, await repoRelative(path, env), baseSha),
          label: `the base commit ${baseSha.slice(0, 12)}`,
          configPath: inputs.config,
          headConfig: file,
          headClassList: settings.classList,
        });
        options.base = baseRead.then((read) => read.base);
        options.baseFindings = baseRead.then((read) => read.findings);
        // Awaited through the audit; until then a failure must not count as unhandled.
        baseRead.catch(() => undefined);
      }
      if (settings.approveLabel && pull) {
        const label = settings.approveLabel;
        options.approved = currentLabels(client, repo, pull, pullFromEvent).then((labels) =>
          labels.includes(label),
        );
      }
      report = await runAudit(settings, options);
      classListRepoPath = await repoPath;
      // Said once the audit has compared: if it failed first, nothing was compared.
      const warning = baseRead && (await baseRead).warning;
      if (warning) issueAnnotation('warning', warning);
      serverNames = report.servers.map((s) => s.server);
      namesKnown = true;
      const audited = report.servers;
      eraOf = (name) => audited.find((s) => s.server === name)?.era;
      reportPath = join(env.RUNNER_TEMP ?? tmpdir(), 'mcp-annotation-auditor', 'report.json');
      await mkdir(dirname(reportPath), { recursive: true });
      await writeFile(reportPath, renderJson(report));
    }
    const counts = reportCounts(report);
    const classListText = settings
      ? await readFile(settings.classList, 'utf8').catch(() => undefined)
      : undefined;
    // The summary and outputs come first: nothing that happens to the comment can lose them.
    // Room is kept for the notes below and for an error after this.
    // What update wrote, counted from the file: a tool listed malformed keeps its reviewed entry.
    appendSummary(renderMarkdown(report, SUMMARY_LIMIT - 64 * 1024));
    setOutput('result', report.mode === 'update' ? 'updated' : report.result);
    setOutput('error-count', counts.error);
    setOutput('warning-count', counts.warning);
    setOutput('notice-count', counts.notice);
    setOutput('changed-count', counts.changed);
    setOutput('tool-count', counts.tools);
    setOutput('report', reportPath);
    process.stdout.write(`${verdictLine(report)}\n`);
    if (inputs.sarifFile)
      await writeSarif(
        inputs.sarifFile,
        renderSarif(report, classListText, classListRepoPath, VERSION),
      );

    const notes: string[] = [];
    let commentIds: number[] = [];
    if (report.mode === 'check') {
      if (settings) {
        const places = await waiverPlaces(report, settings, configPath, configText, env);
        for (const a of annotationsOf(report, classListText, classListRepoPath, places))
          issueAnnotation(a.level, a.message, a.props);
      }
      if (prNumber === undefined) notes.push('Not a pull request: no comment.');
      else if (inputs.comment === 'never') notes.push('Commenting is off (comment: never).');
      else if (!target) {
        const message =
          'No github-token (or GITHUB_REPOSITORY): the report is in the job summary only.';
        issueAnnotation('notice', message);
        notes.push(message);
      } else {
        const approveLabel = settings?.approveLabel ?? inputs.overrides.approveLabel;
        const context = {
          failOn: report.failOn,
          classList: report.classList,
          runFindings: report.findings,
          // Never the report's: an instruction is built from this job's own inputs. A report-file
          // job that is not told the server's command says in words what to run.
          ...(!inputs.reportFile || namesServer(inputs) ? { updateCommand } : {}),
          ...(approveLabel !== undefined ? { approveLabel } : {}),
          ...(report.policies ? { policies: report.policies } : {}),
        };
        const posted = await postComments(
          report,
          context,
          inputs.comment,
          target,
          summaryUrlOf(env),
        );
        commentIds = posted.ids;
        notes.push(...posted.notes);
      }
    }
    if (notes.length) appendSummary(notes.map((n) => `> ${n}`).join('\n'));
    setOutput('comment-id', commentIds.join(','));
    // A report-file job did its part by commenting: the PR's own run is the check that fails.
    if (report.mode === 'check' && report.result === 'failed' && !inputs.reportFile) {
      const failing = allFindings(report).filter((f) => !f.waived).length;
      issueAnnotation(
        'error',
        `${verdictLine(report)} ${failing} finding(s); see the job summary.`,
      );
      process.exitCode = 1;
    }
  } catch (error) {
    const message = redact(describeError(error));
    // The summary and comment show the server's words apart, as a code block.
    const details = error instanceof AuditError ? error.details : undefined;
    const head =
      error instanceof AuditError && details
        ? redact(describeError(new AuditError(error.message, error.hint)))
        : message;
    setOutput('result', 'error');
    issueAnnotation('error', linesSafe(message, 2_000));
    appendSummary(
      `### MCP tool annotations: the audit could not run\n\n${errorMarkdown(head, details, redact)}\n`,
    );
    const names = new Set(serverNames);
    if (!namesKnown && classListPath !== undefined)
      for (const name of await recordedServers(classListPath)) names.add(name);
    const known = policies !== undefined;
    const servers = [...names].map((server) => ({
      server,
      ...(known ? variantEra(eraOf(server)) : {}),
    }));
    // A report-file job's report is the one it was given.
    if (getOptionalInput('report-file', env) === undefined)
      await writeFailedRun(
        {
          mode: getOptionalInput('mode', env) === 'update' ? 'update' : 'check',
          error: message,
          ...(policies ? { policies } : {}),
          servers,
        },
        env,
      );
    if (target)
      await markCommentsFailed(
        target,
        [...names],
        head,
        secrets,
        markersOf(policies, eraOf),
        details,
      );
    process.exitCode = 1;
  }
}
