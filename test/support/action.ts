// Runs a fresh build of the action (test/support/build.ts) as the runner does: node dist/index.js with INPUT_* variables,
// an event payload file, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files, and GITHUB_API_URL.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_BASE_SHA, DEFAULT_HEAD_SHA, DEFAULT_REPOSITORY } from './github-api.js';
import { DIST, runNode, tempDir } from './cli.js';

export const TOKEN = 'ghs_test0123456789abcdefTOKEN';

/** A pull_request event payload of the real shape (the parts the action reads and more). */
export function pullRequestEvent(number = 1, labels: string[] = []): Record<string, unknown> {
  const repo = {
    id: 1296269,
    name: 'octo-repo',
    full_name: DEFAULT_REPOSITORY,
    private: false,
    owner: { login: 'octo-org', type: 'Organization' },
  };
  return {
    action: 'synchronize',
    number,
    pull_request: {
      number,
      state: 'open',
      title: 'Change the notes tools',
      user: { login: 'contributor', type: 'User' },
      labels: labels.map((name, id) => ({ id, name, color: 'ededed' })),
      base: { label: 'octo-org:main', ref: 'main', sha: DEFAULT_BASE_SHA, repo },
      head: { label: 'octo-org:feature', ref: 'feature', sha: DEFAULT_HEAD_SHA, repo },
    },
    repository: repo,
    sender: { login: 'contributor', type: 'User' },
  };
}

/**
 * A workflow_run event payload of the real shape: the run of the PR's workflow that completed.
 * `pulls` are the PRs GitHub lists for it: none for a PR from a fork (`headRepository` then
 * names the fork).
 */
export function workflowRunEvent(
  options: {
    pulls?: number[];
    headSha?: string;
    headRepository?: string;
    conclusion?: 'success' | 'failure';
  } = {},
): Record<string, unknown> {
  const { pulls = [1], headSha = DEFAULT_HEAD_SHA, headRepository = DEFAULT_REPOSITORY } = options;
  const repo = (fullName: string) => ({
    id: fullName === DEFAULT_REPOSITORY ? 1296269 : 1300192,
    name: fullName.split('/')[1],
    full_name: fullName,
    private: false,
    owner: { login: fullName.split('/')[0], type: 'Organization' },
  });
  const ref = (fullName: string) => ({
    id: repo(fullName).id,
    url: `https://api.github.com/repos/${fullName}`,
    name: repo(fullName).name,
  });
  return {
    action: 'completed',
    workflow_run: {
      id: 30433642,
      name: 'MCP annotations',
      event: 'pull_request',
      status: 'completed',
      conclusion: options.conclusion ?? 'success',
      head_branch: 'feature',
      head_sha: headSha,
      pull_requests: pulls.map((number) => ({
        url: `https://api.github.com/repos/${DEFAULT_REPOSITORY}/pulls/${number}`,
        id: 1000 + number,
        number,
        head: { ref: 'feature', sha: headSha, repo: ref(headRepository) },
        base: { ref: 'main', sha: DEFAULT_BASE_SHA, repo: ref(DEFAULT_REPOSITORY) },
      })),
      head_repository: repo(headRepository),
      repository: repo(DEFAULT_REPOSITORY),
    },
    repository: repo(DEFAULT_REPOSITORY),
    sender: { login: 'contributor', type: 'User' },
  };
}

export interface ActionRun {
  code: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
}

function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const re = /^([^<\n]+)<<(ghadelimiter_[0-9a-f-]+)\n([\s\S]*?)\n\2$/gm;
  for (const m of text.matchAll(re)) outputs[m[1] as string] = m[3] as string;
  return outputs;
}

/** What a run is given: the workspace, the inputs, and what the runner or the test sets besides. */
export interface ActionRunOptions {
  inputs: Record<string, string>;
  workspace: string;
  apiUrl?: string;
  event?: Record<string, unknown>;
  /** The event file's text as it is, for events no payload builds (null, not JSON). */
  eventText?: string;
  eventName?: string;
  env?: Record<string, string>;
}

/** The runner's side of a run: the environment, and the files it reads back afterwards. */
export interface RunnerSetup {
  env: Record<string, string>;
  /** The outputs and the job summary, read once the step is over. */
  collect: (run: { code: number | null; stdout: string; stderr: string }) => Promise<ActionRun>;
}

/**
 * What the runner prepares for a step: the event file, empty GITHUB_OUTPUT and
 * GITHUB_STEP_SUMMARY files, a RUNNER_TEMP, and the INPUT_* variables (every declared input,
 * with its default when the workflow sets none). Shared by the bundle run below and the
 * in-process run of the unit layer (test/support/action-in-memory.ts).
 */
export async function runnerSetup(options: ActionRunOptions): Promise<RunnerSetup> {
  const dir = await tempDir();
  const eventPath = join(dir, 'event.json');
  await writeFile(
    eventPath,
    options.eventText ?? JSON.stringify(options.event ?? pullRequestEvent()),
  );
  const outputPath = join(dir, 'output');
  const summaryPath = join(dir, 'summary.md');
  await writeFile(outputPath, '');
  await writeFile(summaryPath, '');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    GITHUB_ACTIONS: 'true',
    CI: 'true',
    GITHUB_EVENT_NAME: options.eventName ?? 'pull_request',
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_OUTPUT: outputPath,
    GITHUB_STEP_SUMMARY: summaryPath,
    GITHUB_REPOSITORY: DEFAULT_REPOSITORY,
    GITHUB_WORKSPACE: options.workspace,
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_RUN_ID: '1658821493',
    RUNNER_TEMP: dir,
    ...(options.apiUrl ? { GITHUB_API_URL: options.apiUrl } : {}),
    'INPUT_GITHUB-TOKEN': TOKEN,
    ...options.env,
  };
  const defaults: Record<string, string> = {
    config: '.github/mcp-annotation-auditor.yml',
    mode: 'check',
    comment: 'auto',
  };
  for (const [name, value] of Object.entries({ ...defaults, ...options.inputs }))
    env[`INPUT_${name.toUpperCase()}`] = value;
  const collect: RunnerSetup['collect'] = async (run) => {
    const [out, summary] = await Promise.all([
      readFile(outputPath, 'utf8'),
      readFile(summaryPath, 'utf8'),
    ]);
    return { ...run, outputs: parseOutputs(out), summary };
  };
  return { env, collect };
}

/** The built action as the runner starts it: node dist/index.js in the workspace. */
export async function runAction(options: ActionRunOptions): Promise<ActionRun> {
  const { env, collect } = await runnerSetup(options);
  const run = await runNode(join(DIST, 'index.js'), [], { cwd: options.workspace, env });
  return collect({ code: run.code, stdout: run.stdout, stderr: run.stderr });
}
