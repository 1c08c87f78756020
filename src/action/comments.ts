import * as core from '@actions/core';
import type { Report } from '../report/report.js';
import type { CommentMode } from '../config/inputs.js';
import { getErrorMessage } from '../errors.js';
import { codeSpanSafe, linesSafe, markdownProse, markdownSafe } from '../escape.js';
import { redactText } from '../redact.js';
import {
  commentMarker,
  renderComment,
  renderRetiredComment,
  serverFailed,
  serverMarker,
  variantOf,
  type CommentContext,
} from '../report/comment.js';
import type { FailedRun } from '../report/json.js';
import { codeBlock } from '../report/code-block.js';
import { GitHubError, type GitHubClient, type IssueComment, type RepoRef } from './github.js';
import { appendSummary } from './summary.js';

/** The PR comments: each server's sticky comment, written, retired, or marked failed. */

/** What was posted: the comments' ids, and a line for the job summary about each. */
export interface Posted {
  ids: number[];
  notes: string[];
}

/** The pull request our comments go on. */
export interface CommentTarget {
  client: GitHubClient;
  repo: RepoRef;
  prNumber: number;
}

interface CommentResult {
  id?: number;
  action: 'created' | 'updated' | 'skipped';
}

/** The marker our comment starts with, when it is a bot's (a person's quote never counts). */
function ourMarker(comment: IssueComment): string | undefined {
  if (comment.user?.type !== 'Bot') return undefined;
  return /^<!-- mcp-annotation-auditor:[A-Za-z0-9_-]+(?: [a-z]+=[a-z+]+)* -->/.exec(
    comment.body ?? '',
  )?.[0];
}

/** Our comments for `server`: in any variant of its marker, or in the one given. */
function serverComments(
  comments: IssueComment[],
  server: string,
  marker?: string,
): { comment: IssueComment; marker: string }[] {
  const plain = commentMarker(server);
  const stem = plain.slice(0, -' -->'.length);
  return comments.flatMap((comment) => {
    const found = ourMarker(comment);
    const ours =
      found !== undefined &&
      (marker !== undefined ? found === marker : found === plain || found.startsWith(`${stem} `));
    return ours ? [{ comment, marker: found }] : [];
  });
}

/**
 * Updates our comment with this marker (see commentMarker) in place, or creates it when `create`
 * says there is something to report. Only comments by a bot that start with the marker count as
 * ours, so a person quoting the marker cannot make us edit their comment.
 */
async function upsertComment(
  { client, repo, prNumber }: CommentTarget,
  server: string,
  marker: string,
  body: string,
  create: boolean,
): Promise<CommentResult> {
  const existing = serverComments(await client.listComments(repo, prNumber), server, marker)[0];
  if (existing) {
    await client.updateComment(repo, existing.comment.id, body);
    return { id: existing.comment.id, action: 'updated' };
  }
  if (!create) return { action: 'skipped' };
  const created = await client.createComment(repo, prNumber, body);
  return { id: created.id, action: 'created' };
}

/** Why a comment could not be written, said once in the log and once in the summary. */
function commentFailure(error: unknown, prNumber: number): string {
  // The pass/fail follows the findings, never the comment.
  const status = error instanceof GitHubError ? error.status : undefined;
  const message =
    status === 403 || status === 401 || status === 404
      ? `Could not comment on PR #${prNumber} (HTTP ${status}): the token may not write to this pull request, as on pull requests from forks. The full report is in this job summary; see the README for the workflow_run setup that comments on fork PRs.`
      : `Could not comment on PR #${prNumber}: ${getErrorMessage(error)}. The full report is in this job summary.`;
  if (status === undefined || status >= 500) core.warning(message);
  else core.notice(message);
  return message;
}

/**
 * The comments of servers the base records under a name no longer audited (renamed or removed)
 * say so; notes for the job summary.
 */
async function retireComments(
  report: Report,
  context: CommentContext,
  target: CommentTarget,
): Promise<string[]> {
  const notes: string[] = [];
  const retired: [string, string | undefined][] = [
    ...report.servers.flatMap((s): [string, string][] =>
      s.renamedFrom !== undefined ? [[s.renamedFrom, s.server]] : [],
    ),
    ...(report.removedServers ?? []).map((name): [string, undefined] => [name, undefined]),
  ];
  for (const [server, now] of retired) {
    const current = report.servers.find((s) => s.server === now);
    const failed = current
      ? serverFailed(current, context.failOn, context.runFindings)
      : report.result === 'failed';
    // The retired server's comment of this run's configuration (policies, and the era of the
    // server that now stands for it).
    const era = current?.era;
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
  return notes;
}

/** Each server's comment, written when there is something to say (or always); then retired ones. */
export async function postComments(
  report: Report,
  context: CommentContext,
  mode: CommentMode,
  target: CommentTarget,
): Promise<Posted> {
  const ids: number[] = [];
  const notes: string[] = [];
  for (const server of report.servers) {
    const body = renderComment(server, context);
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
      notes.push(commentFailure(error, target.prNumber));
    }
  }
  notes.push(...(await retireComments(report, context, target)));
  return { ids, notes };
}

/**
 * An error for the job summary or a comment: what failed as a paragraph, and the server's own
 * words (`details`: stderr, a response body) as a code block, line by line as it printed them.
 */
export function errorMarkdown(
  message: string,
  details: string | undefined,
  redact: (text: string) => string,
): string {
  // Our own sentence, whose commands stay runnable code spans; the server's words are `details`.
  const text = markdownProse(redact(message), 2_000);
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
  more: { markerOf?: ((server: string) => string) | undefined; details?: string | undefined } = {},
): Promise<void> {
  const { markerOf, details } = more;
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
export async function commentFailedRun(
  run: FailedRun,
  target: CommentTarget | undefined,
  reportPath: string,
  markerOf: ((server: string) => string) | undefined,
): Promise<void> {
  appendSummary(
    `### MCP tool annotations: the PR's audit could not run\n\n${markdownSafe(run.error, 2_000)}\n`,
  );
  core.setOutput('result', 'error');
  core.setOutput('report', reportPath);
  core.setOutput('comment-id', '');
  core.warning(`The PR's audit could not run: ${linesSafe(run.error, 2_000)}`);
  if (target)
    await markCommentsFailed(
      target,
      run.servers.map((s) => s.server),
      run.error,
      [],
      { markerOf },
    );
}
