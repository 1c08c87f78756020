import { AuditError, getErrorMessage } from '../errors.js';
import { GitHubError, type GitHubClient, type PullRequestInfo, type RepoRef } from './github.js';

/*
 * A report-file job comments with a write token on a PR, from a report that an untrusted run
 * wrote. Which PR, and for which commit, is therefore taken from the event that started this
 * job (trusted: the runner writes it), never from the artifact, and checked against the API
 * before anything is written.
 */

/** The commit whose audit the report is, as the event that started this job names it. */
export interface TriggeringCommit {
  /** workflow_run.head_sha, or a pull_request event's head commit. */
  headSha: string;
  /** `owner/name` of the repository that commit is in (a fork's, for a fork PR). */
  headRepo?: string;
  /** The PRs the event names for it: empty for a fork's PR, which workflow_run leaves out. */
  pulls: number[];
  /** The event field it was read from, for messages. */
  source: 'workflow_run' | 'pull_request';
}

type Json = Record<string, unknown>;
const object = (value: unknown): Json | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Json)
    : undefined;
const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value ? value : undefined;
const number = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : undefined;

/** The commit of the run that wrote the report: from workflow_run, else from pull_request. */
export function triggeringCommit(event: unknown): TriggeringCommit | undefined {
  const run = object(object(event)?.workflow_run);
  if (run) {
    const headSha = text(run.head_sha);
    if (!headSha) return undefined;
    const headRepo = text(object(run.head_repository)?.full_name);
    const pulls = Array.isArray(run.pull_requests)
      ? run.pull_requests.flatMap((p: unknown) => {
          const n = number(object(p)?.number);
          return n !== undefined ? [n] : [];
        })
      : [];
    return { headSha, ...(headRepo ? { headRepo } : {}), pulls, source: 'workflow_run' };
  }
  const pull = object(object(event)?.pull_request);
  const head = object(pull?.head);
  const headSha = text(head?.sha);
  const n = number(pull?.number);
  if (!headSha || n === undefined) return undefined;
  const headRepo = text(object(head?.repo)?.full_name);
  return { headSha, ...(headRepo ? { headRepo } : {}), pulls: [n], source: 'pull_request' };
}

const REFUSED = 'Nothing was written to any pull request.';

/** The PR number to comment on: the event's, with the pr-number input agreeing. */
function pullNumber(commit: TriggeringCommit, input: number | undefined): number {
  const { pulls } = commit;
  if (pulls.length === 0) {
    if (input !== undefined) return input;
    throw new AuditError(
      `The ${commit.source} event names no pull request (workflow_run leaves out the PRs of forks), and the pr-number input is not set. ${REFUSED}`,
      "Pass the PR's number with pr-number, as the README's workflow_run example does.",
    );
  }
  const listed = pulls.map((n) => `#${n}`).join(', ');
  if (input !== undefined && !pulls.includes(input))
    throw new AuditError(
      `Input "pr-number" is ${input}, but the ${commit.source} that started this job is for PR ${listed}. ${REFUSED}`,
      'Leave pr-number out (the event names the PR), or pass the number of the PR the report was written for.',
    );
  if (input !== undefined) return input;
  if (pulls.length > 1)
    throw new AuditError(
      `The ${commit.source} that started this job is for several PRs (${listed}): which one the report is for cannot be told. ${REFUSED}`,
      "Pass the PR's number with pr-number.",
    );
  return pulls[0] as number;
}

const short = (sha: string) => sha.slice(0, 12);

/**
 * The PR a report-file job may comment on: it exists (an issue is no PR), is open, and its head
 * is the commit (and repository) the event says the report's run audited. Anything else is an
 * AuditError, thrown before anything is written.
 */
export async function verifiedPull(
  client: GitHubClient,
  repo: RepoRef,
  commit: TriggeringCommit | undefined,
  input: number | undefined,
): Promise<PullRequestInfo> {
  if (!commit)
    throw new AuditError(
      `report-file comments only on the PR whose run wrote the report, and the event that started this job names no such run (no workflow_run.head_sha). ${REFUSED}`,
      "Run this step in a workflow started by workflow_run (see the README's Safe setups), or set comment: never.",
    );
  const number = pullNumber(commit, input);
  let pull: PullRequestInfo;
  try {
    pull = await client.getPull(repo, number);
  } catch (error) {
    if (error instanceof GitHubError && error.status === 404)
      throw new AuditError(
        `#${number} is not a pull request of ${repo.owner}/${repo.repo} (an issue, or no such number). ${REFUSED}`,
        'Pass the number of the PR the report was written for.',
      );
    throw new AuditError(
      `Could not read PR #${number} to check that the report is for it: ${getErrorMessage(error)}. ${REFUSED}`,
      'Re-run the job; the token needs pull-requests: read (write, to comment).',
    );
  }
  if (pull.state !== 'open')
    throw new AuditError(
      `PR #${number} is ${pull.state ?? 'not open'}: its comment is left as it is. ${REFUSED}`,
      'Nothing to do: a closed PR is not commented on.',
    );
  if (pull.headSha !== commit.headSha)
    throw new AuditError(
      `PR #${number}'s head is ${short(pull.headSha ?? 'unknown')}, but the run that wrote the report audited ${short(commit.headSha)} (${commit.source}.head_sha): the report is not for this PR as it is now. ${REFUSED}`,
      'If the PR got a newer push, its own run comments once it completes; otherwise check where pr-number comes from.',
    );
  if (commit.headRepo !== undefined && pull.headRepo !== commit.headRepo)
    throw new AuditError(
      `PR #${number}'s head is in ${pull.headRepo ?? 'a deleted repository'}, but the run that wrote the report audited ${commit.headRepo}: the report is not for this PR. ${REFUSED}`,
      'Check where pr-number comes from.',
    );
  return pull;
}
