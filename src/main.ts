import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { appendSummary, issueAnnotation, setOutput, setSecret } from './actions.js';
import { allFindings, runAudit, type AuditOptions, type Report } from './audit.js';
import { DEFAULT_CLASS_LIST, fullToolName, lineOfTool } from './classlist.js';
import { renderComment, serverFailed, upsertComment } from './comment.js';
import { readConfigFile, resolveSettings, type Settings } from './config.js';
import { describeError, getErrorMessage } from './errors.js';
import {
  GitHubClient,
  GitHubError,
  pullInfo,
  type PullPayload,
  type PullRequestInfo,
  type RepoRef,
} from './github.js';
import { readInputs, type ActionInputs } from './inputs.js';
import { renderJson, renderMarkdown, reportCounts, verdictLine } from './render.js';
import { bySeverity } from './rules.js';
import { renderSarif } from './sarif.js';
import { VERSION } from './version.js';

const MAX_ANNOTATIONS = 50;

function readRepo(env: NodeJS.ProcessEnv): RepoRef | undefined {
  const [owner, repo] = (env.GITHUB_REPOSITORY ?? '').split('/');
  return owner && repo ? { owner, repo } : undefined;
}

async function readEvent(
  path: string | undefined,
): Promise<{ pull_request?: PullPayload; number?: number }> {
  if (!path) return {};
  try {
    return JSON.parse(await readFile(path, 'utf8')) as { pull_request?: PullPayload };
  } catch {
    return {};
  }
}

function git(args: string[]): Promise<string> {
  return new Promise((resolvePromise, reject) =>
    execFile('git', args, { maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      error ? reject(new Error(stderr.trim() || error.message)) : resolvePromise(stdout),
    ),
  );
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
    return await git(['show', `${sha}:${repoPath}`]).catch((error: Error) => {
      if (/does not exist in|exists on disk, but not in/.test(error.message)) return null;
      throw error;
    });
  } catch (error) {
    throw new Error(
      `could not read ${repoPath} at the base commit ${sha.slice(0, 12)}: ${apiError ? `${getErrorMessage(apiError)}; ` : ''}${getErrorMessage(error)}`,
    );
  }
}

/** The path of a file relative to the repository root, with forward slashes. */
function repoRelative(path: string, env: NodeJS.ProcessEnv): string {
  const root = env.GITHUB_WORKSPACE ?? process.cwd();
  return relative(root, resolve(path)).split(sep).join('/');
}

function updateCommandFor(inputs: ActionInputs): string {
  const args = ['npx', 'mcp-annotation-auditor', 'update'];
  if (inputs.configRequired) args.push('--config', inputs.config);
  const o = inputs.overrides;
  if (o.classList !== undefined && o.classList !== DEFAULT_CLASS_LIST)
    args.push('--class-list', o.classList);
  if (o.serverName !== undefined) args.push('--server-name', o.serverName);
  if (o.url !== undefined) args.push('--url', o.url);
  if (o.command?.length) args.push('--', ...o.command);
  return args
    .map((a) => (/^[A-Za-z0-9_./:=@%+-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`))
    .join(' ');
}

/** Workflow annotations on the class-list lines of the tools concerned, most severe first. */
function annotate(report: Report, classListText: string | undefined, file: string): void {
  const located = report.servers
    .flatMap((server) =>
      server.findings
        .filter((f) => !f.waived)
        .map((f) => ({
          f,
          line:
            f.tool !== undefined && classListText
              ? lineOfTool(classListText, fullToolName(server.server, f.tool))
              : undefined,
        })),
    )
    .concat(report.findings.map((f) => ({ f, line: undefined })))
    .sort((a, b) => bySeverity(a.f, b.f));
  for (const { f, line } of located.slice(0, MAX_ANNOTATIONS)) {
    const message = `${f.tool !== undefined ? `${f.tool}: ` : ''}${f.message}${f.fix ? ` ${f.fix}` : ''}`;
    issueAnnotation(f.severity, message, {
      ...(classListText !== undefined ? { file, line: line ?? 1 } : {}),
      title: `mcp-annotation-auditor: ${f.rule}`,
    });
  }
  if (located.length > MAX_ANNOTATIONS)
    issueAnnotation(
      'notice',
      `${located.length - MAX_ANNOTATIONS} more findings are in the job summary and the JSON report.`,
    );
}

async function postComments(
  report: Report,
  settings: Settings,
  inputs: ActionInputs,
  client: GitHubClient,
  repo: RepoRef,
  prNumber: number,
  summaryUrl: string | undefined,
): Promise<{ ids: number[]; notes: string[] }> {
  const ids: number[] = [];
  const notes: string[] = [];
  for (const server of report.servers) {
    const body = renderComment(server, {
      failOn: settings.failOn,
      classList: settings.classList,
      updateCommand: updateCommandFor(inputs),
      ...(settings.approveLabel !== undefined ? { approveLabel: settings.approveLabel } : {}),
      ...(summaryUrl !== undefined ? { summaryUrl } : {}),
    });
    const create =
      inputs.comment === 'always' ||
      server.changes.length > 0 ||
      serverFailed(server, settings.failOn);
    try {
      const result = await upsertComment(client, repo, prNumber, server.server, body, create);
      if (result.id !== undefined) ids.push(result.id);
      notes.push(
        `Comment for ${server.server}: ${result.action}${result.id !== undefined ? ` (#${result.id})` : ''}.`,
      );
    } catch (error) {
      if (
        error instanceof GitHubError &&
        (error.status === 403 || error.status === 401 || error.status === 404)
      ) {
        const message = `Could not comment on PR #${prNumber} (HTTP ${error.status}): the token may not write to this pull request, as on pull requests from forks. The full report is in this job summary; see the README for the workflow_run setup that comments on fork PRs.`;
        issueAnnotation('notice', message);
        notes.push(message);
      } else throw error;
    }
  }
  return { ids, notes };
}

/** The action: inputs -> audit -> outputs, summary, annotations, comment. */
export async function run(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  try {
    const inputs = readInputs(env);
    if (inputs.token) setSecret(inputs.token);
    const workspace = env.GITHUB_WORKSPACE ?? process.cwd();
    if (inputs.workingDirectory) process.chdir(resolve(workspace, inputs.workingDirectory));
    const file = await readConfigFile(inputs.config, inputs.configRequired);
    const settings = resolveSettings(file, inputs.config, inputs.overrides);
    const event = await readEvent(env.GITHUB_EVENT_PATH);
    const repo = readRepo(env);
    const client = inputs.token ? new GitHubClient(inputs.token, env.GITHUB_API_URL) : undefined;

    let pull: PullRequestInfo | undefined = event.pull_request
      ? pullInfo(event.pull_request)
      : undefined;
    if (inputs.prNumber !== undefined && pull?.number !== inputs.prNumber) {
      pull = undefined;
      if (client && repo)
        pull = await client.getPull(repo, inputs.prNumber).catch((error: unknown) => {
          issueAnnotation(
            'warning',
            `Could not read PR #${inputs.prNumber}: ${getErrorMessage(error)}. Comparing with the class list at HEAD only.`,
          );
          return undefined;
        });
    }
    const prNumber = inputs.prNumber ?? pull?.number;
    const classListRepoPath = repoRelative(settings.classList, env);
    const options: AuditOptions = { mode: inputs.mode, updateCommand: updateCommandFor(inputs) };
    if (inputs.mode === 'check' && pull) {
      try {
        options.base = {
          text: await readBase(client, repo, classListRepoPath, pull.baseSha),
          label: `the base commit ${pull.baseSha.slice(0, 12)}`,
        };
      } catch (error) {
        issueAnnotation(
          'warning',
          `${getErrorMessage(error)}. Comparing with the class list at HEAD only.`,
        );
      }
    }
    if (settings.approveLabel && pull?.labels.includes(settings.approveLabel))
      options.approved = true;

    const report = await runAudit(settings, options);
    const counts = reportCounts(report);
    const reportPath = join(env.RUNNER_TEMP ?? tmpdir(), 'mcp-annotation-auditor', 'report.json');
    await mkdir(dirname(reportPath), { recursive: true });
    await writeFile(reportPath, renderJson(report));
    const classListText = await readFile(settings.classList, 'utf8').catch(() => undefined);
    if (inputs.sarifFile)
      await writeFile(
        inputs.sarifFile,
        renderSarif(report, classListText, classListRepoPath, VERSION),
      );

    const summaryNotes: string[] = [];
    let commentIds: number[] = [];
    if (inputs.mode === 'check') {
      annotate(report, classListText, classListRepoPath);
      if (prNumber === undefined) summaryNotes.push('Not a pull request: no comment.');
      else if (inputs.comment === 'never') summaryNotes.push('Commenting is off (comment: never).');
      else if (!client || !repo) {
        const message =
          'No github-token (or GITHUB_REPOSITORY): the report is in the job summary only.';
        issueAnnotation('notice', message);
        summaryNotes.push(message);
      } else {
        const summaryUrl =
          env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID
            ? `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`
            : undefined;
        const posted = await postComments(
          report,
          settings,
          inputs,
          client,
          repo,
          prNumber,
          summaryUrl,
        );
        commentIds = posted.ids;
        summaryNotes.push(...posted.notes);
      }
    }
    appendSummary(`${renderMarkdown(report)}${summaryNotes.map((n) => `> ${n}`).join('\n')}\n`);

    setOutput('result', report.mode === 'check' ? report.result : 'updated');
    setOutput('error-count', counts.error);
    setOutput('warning-count', counts.warning);
    setOutput('notice-count', counts.notice);
    setOutput('changed-count', counts.changed);
    setOutput('tool-count', counts.tools);
    setOutput('report', reportPath);
    setOutput('comment-id', commentIds.join(','));
    process.stdout.write(`${verdictLine(report)}\n`);
    if (report.mode === 'check' && report.result === 'failed') {
      const failing = allFindings(report).filter((f) => !f.waived).length;
      issueAnnotation(
        'error',
        `${verdictLine(report)} ${failing} finding(s); see the job summary.`,
      );
      process.exitCode = 1;
    }
  } catch (error) {
    setOutput('result', 'error');
    issueAnnotation('error', describeError(error));
    process.exitCode = 1;
  }
}
