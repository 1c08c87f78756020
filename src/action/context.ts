import { resolve } from 'node:path';
import * as core from '@actions/core';
import { DEFAULT_CLASS_LIST, MCP_JSON } from '../config/defaults.js';
import { readInputs, type ActionInputs } from '../config/inputs.js';
import { shellQuote, updateCommandLine } from '../config/settings.js';
import { readConfigFile, type ConfigFile } from '../config/file.js';
import { AuditError, getErrorMessage } from '../errors.js';
import { terminalSafe } from '../escape.js';
import { enteredWorkingDirectory, readTrusted } from '../prestart.js';
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

/** The config file the run uses; its text is kept so annotations can point at a waiver's line. */
export interface ConfigRead {
  file?: ConfigFile;
  path: string;
  text?: string;
}

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
}

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
): Promise<{ event?: unknown; pull?: PullRequestInfo }> {
  if (!path) return {};
  let event: unknown;
  try {
    event = JSON.parse(await readTrusted(path));
  } catch (error) {
    core.warning(
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
    core.warning(
      `The event's pull_request has no number or base commit; this run is taken as not being about a pull request.`,
    );
    return { event };
  }
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
 * (a report-file job takes its PR from the event, checked later; it reads no base).
 */
async function readPull(
  inputs: ActionInputs,
  client: GitHubClient | undefined,
  repo: RepoRef | undefined,
  fromEvent: PullRequestInfo | undefined,
): Promise<PullRequestInfo | undefined> {
  if (inputs.reportFile || inputs.prNumber === undefined || fromEvent?.number === inputs.prNumber)
    return fromEvent;
  if (!client || !repo) return undefined;
  return client.getPull(repo, inputs.prNumber).catch((error: unknown) => {
    core.warning(
      `Could not read PR #${inputs.prNumber}: ${getErrorMessage(error)}. Comparing with the class list at HEAD only.`,
    );
    return undefined;
  });
}

/** The config file; without one, nor a command or url, the project's .mcp.json lists the servers. */
async function readConfig(inputs: ActionInputs): Promise<ConfigRead> {
  let text: string | undefined;
  const read = async (path: string) => (text = await readTrusted(path));
  const file = await readConfigFile(inputs.config, inputs.configRequired, read);
  if (file || inputs.configRequired || inputs.overrides.command || inputs.overrides.url)
    return {
      ...(file ? { file } : {}),
      path: inputs.config,
      ...(text !== undefined ? { text } : {}),
    };
  const project = await readConfigFile(MCP_JSON, false, read);
  if (!project) return { path: inputs.config };
  core.info(`Servers from ${MCP_JSON} (there is no ${inputs.config}).`);
  return { file: project, path: MCP_JSON, ...(text !== undefined ? { text } : {}) };
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
export async function readContext(env: NodeJS.ProcessEnv, known: Known): Promise<ActionContext> {
  const inputs = readInputs(env);
  const updateCommand = updateCommandFor(inputs);
  const workspace = env.GITHUB_WORKSPACE ?? process.cwd();
  if (inputs.workingDirectory && !enteredWorkingDirectory())
    enter(resolve(workspace, inputs.workingDirectory), inputs.workingDirectory);
  const repo = readRepo(env);
  const { event, pull: eventPull } = await readEvent(env.GITHUB_EVENT_PATH);
  // Loaded before anything else runs: see loadGitHub.
  if (inputs.token) await loadGitHub();
  const client = inputs.token ? new GitHubClient(inputs.token, env.GITHUB_API_URL) : undefined;
  const pull = await readPull(inputs, client, repo, eventPull);
  const prNumber = inputs.prNumber ?? pull?.number;
  const commenting = client && repo && inputs.comment !== 'never' ? { client, repo } : undefined;
  const target =
    commenting && prNumber !== undefined && !inputs.reportFile
      ? { ...commenting, prNumber }
      : undefined;
  // Read after the comment target is known: a config file that is wrong marks the comment.
  const config = await within(knownOf({ inputs, ...(target ? { target } : {}) }, known), () =>
    readConfig(inputs),
  );
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
  };
}
