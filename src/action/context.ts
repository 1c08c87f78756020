import { resolve } from 'node:path';
import * as core from '@actions/core';
import { logLine } from './log.js';
import { sentence } from '../core/text.js';
import { DEFAULT_CLASS_LIST } from '../config/defaults.js';
import { NULL_SHA } from '../config/base-reader.js';
import { readRunConfig, type ConfigRead } from '../config/plan.js';
import { readInputs, type ActionInputs } from '../config/inputs.js';
import { shellQuote, updateCommandLine } from '../config/settings.js';
import { AuditError, getErrorMessage } from '../errors.js';
import { terminalSafe } from '../escape.js';
import { enteredWorkingDirectory } from './early.js';
import { readTrusted } from '../trusted.js';
import type { CommentTarget } from './comments.js';
import { within, type Known } from './failure.js';
import {
  GitHubClient,
  loadGitHub,
  pullInfo,
  type PullPayload,
  type PullRequestInfo,
  type RepoRef,
} from './github.js';

/**
 * Step one of the action: the inputs, the event and the pull request it is about, where comments
 * go, and the config file.
 */

export type { ConfigRead };

/**
 * The commit a check compares with: the PR's base, the merge group's base, or the commit a push
 * started from; or why there is none (a push that creates its branch).
 */
export type BaseCommit =
  | {
      sha: string;
      label: string;
      /** A pull request's base: GitHub's pull request names it, so GitHub holds it. */
      ofPull?: true;
    }
  | { none: string };

export interface ActionContext {
  env: NodeJS.ProcessEnv;
  inputs: ActionInputs;
  /** The command that accepts the reviewed changes, from this job's own inputs. */
  updateCommand: string;
  repo?: RepoRef;
  client?: GitHubClient;
  /** The event that started the job, as the runner wrote it. */
  event?: unknown;
  pull?: PullRequestInfo;
  /** The pull request is the event's (its labels are those of the moment it fired). */
  pullFromEvent: boolean;
  prNumber?: number;
  /** Where comments can go, when there is a token and commenting is on. */
  commenting?: Omit<CommentTarget, 'prNumber'>;
  /** The PR the comments go on; a report-file job's is verified later (see verifiedPull). */
  target?: CommentTarget;
  config: ConfigRead;
  /** The commit a check compares with, or why there is none (absent: no check, or a report file). */
  base?: BaseCommit;
}

function readRepo(env: NodeJS.ProcessEnv): RepoRef | undefined {
  const [owner, repo] = (env.GITHUB_REPOSITORY ?? '').split('/');
  return owner && repo ? { owner, repo } : undefined;
}

/**
 * The event, and the pull request it is about, if any. An event that cannot be read, or whose
 * pull_request lacks its number or base commit, is no pull request: `problem` says why, as a
 * clause (see eventProblem for what becomes of it).
 */
async function readEvent(
  path: string | undefined,
): Promise<{ event?: unknown; pull?: PullRequestInfo; problem?: string }> {
  if (!path) return {};
  let event: unknown;
  try {
    event = JSON.parse(await readTrusted(path));
  } catch (error) {
    return {
      problem: `the event file ${path} could not be read as JSON (${terminalSafe(getErrorMessage(error), 200)})`,
    };
  }
  const pull = (event as { pull_request?: unknown } | null)?.pull_request;
  if (pull === undefined || pull === null) return { event };
  const payload = pull as Partial<PullPayload>;
  if (
    typeof payload.number !== 'number' ||
    !Number.isSafeInteger(payload.number) ||
    typeof payload.base?.sha !== 'string'
  )
    return { event, problem: "the event's pull_request has no number or base commit" };
  return { event, pull: pullInfo(payload as PullPayload) };
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

function updateCommandFor(inputs: ActionInputs): string {
  const command = updateCommandLine(
    inputs.overrides,
    inputs.configRequired ? inputs.config : undefined,
  );
  return inputs.workingDirectory
    ? `cd ${shellQuote(inputs.workingDirectory)} && ${command}`
    : command;
}

/**
 * The pull request: the event's, unless pr-number names another, which is read through the API
 * (a report-file job takes its PR from the event, checked later; it reads no base). A PR that
 * pr-number names and that cannot be read fails the run: its base commit is what the check
 * compares with, and comparing with HEAD alone would pass a dropped hint.
 */
async function readPull(
  inputs: ActionInputs,
  client: GitHubClient | undefined,
  repo: RepoRef | undefined,
  fromEvent: PullRequestInfo | undefined,
): Promise<PullRequestInfo | undefined> {
  const { prNumber } = inputs;
  if (inputs.reportFile || prNumber === undefined || fromEvent?.number === prNumber)
    return fromEvent;
  const named = `Input "pr-number" names PR #${prNumber}`;
  const unchecked =
    'without its base commit, what the PR does to the reviewed tools (a dropped hint, say) cannot be checked';
  if (!client || !repo)
    throw new AuditError(
      `${named}, but ${client ? 'GITHUB_REPOSITORY is not set' : 'there is no github-token'} to read it with: ${unchecked}.`,
      "Give the github-token input (with pull-requests: read), or leave pr-number out on the pull request's own events.",
    );
  return client.getPull(repo, prNumber).catch((error: unknown) => {
    throw new AuditError(
      `${named}, which could not be read (${terminalSafe(getErrorMessage(error), 300)}): ${unchecked}.`,
      'Check that the PR is in this repository and that the token may read it (pull-requests: read), then run the job again.',
    );
  });
}

/**
 * A pull request's own event (pull_request, pull_request_target, ...) whose payload names no PR
 * with a base commit fails the run, unless pr-number names the PR to read: the base commit is what
 * the check compares with, and comparing with HEAD alone would pass a dropped hint. GitHub always
 * sends both. An event of another kind without them is no pull request, said as a warning.
 */
function eventProblem(
  eventName: string | undefined,
  read: { pull?: PullRequestInfo; problem?: string },
  inputs: ActionInputs,
): void {
  if (read.pull) return;
  const pullEvent = eventName?.startsWith('pull_request') === true;
  if (pullEvent && !inputs.reportFile && inputs.prNumber === undefined)
    throw new AuditError(
      `The event is ${terminalSafe(eventName ?? '', 60)}, but ${read.problem ?? 'its payload names no pull request with a number and a base commit'}: without the base commit, what the PR does to the reviewed tools (a dropped hint, say) cannot be checked.`,
      'Run the step on the event as GitHub sends it (GITHUB_EVENT_PATH), or give pr-number with github-token to read the PR through the API.',
    );
  if (read.problem)
    core.warning(sentence(`${read.problem}; this run is taken as not being about a pull request`));
}

/** The config file (with .mcp.json's servers when it names none), as the CLI reads it too. */
async function readConfig(inputs: ActionInputs): Promise<ConfigRead> {
  const config = await readRunConfig({
    path: inputs.config,
    required: inputs.configRequired,
    direct: Boolean(inputs.overrides.command?.length || inputs.overrides.url),
  });
  if (config.note) logLine(sentence(config.note));
  return config;
}

/** A commit id from the event, checked: one that is not is no base to compare with. */
function eventSha(value: unknown, where: string): string {
  if (typeof value === 'string' && /^[0-9a-f]{40}$/i.test(value)) return value;
  throw new AuditError(
    `The event's ${where} is ${typeof value === 'string' ? `"${terminalSafe(value, 80)}"` : 'missing'}, not a commit id: there is no base to compare with.`,
    'Run the check on pull_request, merge_group or push events, as GitHub sends them.',
  );
}

/**
 * The events about no pull request, merge group or push, where a check compares the class list
 * at HEAD alone, and says so. Every other event without a base (a comment, a check suite, a
 * workflow_run, an event GitHub adds later) fails the run: an allow-list.
 */
const NO_BASE_EVENTS = new Set([
  'workflow_dispatch',
  'schedule',
  'release',
  'repository_dispatch',
  'create',
]);

/**
 * The pull request an event is about, when it carries no pull_request of its own: a comment on a
 * PR (`issue.pull_request`), a check suite or run GitHub ties to PRs. As a clause; undefined when
 * it names none (a workflow_run's list is empty for a fork's PR, so it is never read).
 */
function pullRequestOf(event: unknown): string | undefined {
  const payload = (event ?? {}) as {
    issue?: { number?: unknown; pull_request?: unknown };
    check_suite?: { pull_requests?: unknown };
    check_run?: { pull_requests?: unknown };
  };
  const issue = payload.issue;
  if (issue?.pull_request !== undefined && issue.pull_request !== null)
    return typeof issue.number === 'number' && Number.isSafeInteger(issue.number)
      ? `about PR #${issue.number}`
      : 'about a pull request';
  const listed = [payload.check_suite?.pull_requests, payload.check_run?.pull_requests];
  return listed.some((prs) => Array.isArray(prs) && prs.length > 0)
    ? 'about a pull request'
    : undefined;
}

/**
 * The base a check compares with: the PR's base commit, `merge_group.base_sha`, or a push's
 * `before`. A push that creates its branch (the all-zero before) and the events of
 * NO_BASE_EVENTS have no earlier commit: said, never guessed. Any other event fails the run
 * (fail closed), since comparing with HEAD alone would pass a dropped hint: a PR's comment, check
 * suite or workflow_run is told its PR with pr-number, whose base is then read through the API.
 */
export function baseOfEvent(
  event: unknown,
  eventName: string | undefined,
  pull: PullRequestInfo | undefined,
): BaseCommit {
  const short = (sha: string) => sha.slice(0, 12);
  if (pull)
    return { sha: pull.baseSha, label: `the base commit ${short(pull.baseSha)}`, ofPull: true };
  const payload = (event ?? {}) as { merge_group?: { base_sha?: unknown }; before?: unknown };
  if (eventName === 'merge_group') {
    const sha = eventSha(payload.merge_group?.base_sha, 'merge_group.base_sha');
    return { sha, label: `the merge group's base commit ${short(sha)}` };
  }
  const name = terminalSafe(eventName ?? 'unnamed', 60);
  if (eventName !== undefined && NO_BASE_EVENTS.has(eventName))
    return {
      none: `No base comparison was made: the event is ${name}, about no pull request, merge group or push, so there is no earlier commit to compare with. The class list at HEAD is checked as it is.`,
    };
  if (eventName !== 'push') {
    const about = pullRequestOf(event);
    throw new AuditError(
      `The event is ${name}${about ? `, ${about},` : ''} but it names no base commit the check can compare with: without one, what a PR does to the reviewed tools (a dropped hint, say) cannot be checked.`,
      `Give pr-number (the PR to check) with github-token, so that its base commit is read through the API; or, in a workflow_run job that comments, give report-file; or run the check on pull_request, merge_group or push events (on ${[...NO_BASE_EVENTS].join(', ')}, the class list at HEAD is checked alone).`,
    );
  }
  const sha = eventSha(payload.before, 'before');
  if (NULL_SHA.test(sha))
    return {
      none: "No base comparison was made: this push creates the branch (the event's before is the all-zero commit id), so there is no earlier commit to compare with. The class list at HEAD is checked as it is.",
    };
  return { sha, label: `the commit before this push ${short(sha)}` };
}

/** What an error knows once the context is read: the PR it marks, the class list's servers. */
export function knownOf(context: Pick<ActionContext, 'inputs' | 'target'>, known: Known): Known {
  const { inputs, target } = context;
  return {
    ...known,
    classListPath: inputs.overrides.classList ?? DEFAULT_CLASS_LIST,
    ...(target ? { target } : {}),
  };
}

/** Step one. `known` is what an error says: the config file is read once the target is known. */
export async function readContext(
  env: NodeJS.ProcessEnv,
  known: Known,
  retryDelays?: readonly number[],
): Promise<ActionContext> {
  const inputs = readInputs(env);
  const updateCommand = updateCommandFor(inputs);
  const workspace = env.GITHUB_WORKSPACE ?? process.cwd();
  if (inputs.workingDirectory && !enteredWorkingDirectory())
    enter(resolve(workspace, inputs.workingDirectory), inputs.workingDirectory);
  const repo = readRepo(env);
  const read = await readEvent(env.GITHUB_EVENT_PATH);
  const { event, pull: eventPull } = read;
  eventProblem(env.GITHUB_EVENT_NAME, read, inputs);
  // Loaded before anything else runs: see loadGitHub.
  if (inputs.token) await loadGitHub();
  const client = inputs.token
    ? new GitHubClient(inputs.token, env.GITHUB_API_URL, retryDelays)
    : undefined;
  const pull = await readPull(inputs, client, repo, eventPull);
  const prNumber = inputs.prNumber ?? pull?.number;
  const commenting = client && repo && inputs.comment !== 'never' ? { client, repo } : undefined;
  const target =
    commenting && prNumber !== undefined && !inputs.reportFile
      ? { ...commenting, prNumber }
      : undefined;
  // Read after the comment target is known: a config file that is wrong marks the comment.
  const knows = knownOf({ inputs, ...(target ? { target } : {}) }, known);
  const config = await within(knows, () => readConfig(inputs));
  // Only a check compares with a base (update records what the server lists now).
  const base =
    inputs.reportFile || inputs.mode !== 'check'
      ? undefined
      : await within(knows, () => Promise.resolve(baseOfEvent(event, env.GITHUB_EVENT_NAME, pull)));
  return {
    env,
    inputs,
    updateCommand,
    ...(repo ? { repo } : {}),
    ...(client ? { client } : {}),
    ...(event !== undefined ? { event } : {}),
    ...(pull ? { pull } : {}),
    pullFromEvent: pull !== undefined && pull === eventPull,
    ...(prNumber !== undefined ? { prNumber } : {}),
    ...(commenting ? { commenting } : {}),
    ...(target ? { target } : {}),
    config,
    ...(base ? { base } : {}),
  };
}
