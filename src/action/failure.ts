import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as core from '@actions/core';
import { runnerTempRoot, writeConfined } from '../confined.js';
import type { EraSetting } from '../config/settings.js';
import type { Policy } from '../config/defaults.js';
import { parseClassList } from '../core/classlist.js';
import { AuditError, describeError, getErrorMessage } from '../errors.js';
import { linesSafe, terminalSafe } from '../escape.js';
import { redactText } from '../redact.js';
import { commentMarker } from '../report/comment.js';
import { renderFailedRun, type FailedRun } from '../report/json.js';
import { errorMarkdown, markCommentsFailed, type CommentTarget } from './comments.js';
import { appendSummary } from './summary.js';
import { stepFile } from './step-dir.js';

/**
 * What the run knows when a step fails: which PR comments an error marks, with which markers,
 * and which secrets to keep out of what it writes. Each step's result says more than the last.
 */
export interface Known {
  /** Masked in the log, and redacted from what the error path writes. */
  secrets: string[];
  target?: CommentTarget;
  /** The servers named so far: in the config, or all of them once the audit named them. */
  servers: string[];
  /** Every server has its name: the class list's records add none. */
  namesKnown: boolean;
  /** The class list whose recorded servers stand for those not named yet. */
  classListPath?: string;
  /** With each server's era, what picks its comment's marker (see commentMarker), once known. */
  policies?: Policy[];
  eraOf: (server: string) => EraSetting | undefined;
}

export const nothingKnown = (secrets: string[]): Known => ({
  secrets,
  servers: [],
  namesKnown: false,
  eraOf: () => undefined,
});

/** A step's error with what the run knew when it was thrown. */
export class StepFailure extends Error {
  override name = 'StepFailure';
  constructor(
    readonly error: unknown,
    readonly known: Known,
  ) {
    super(getErrorMessage(error));
  }
}

/** Runs a step; its error carries `known`, unless a step inside it already knew more. */
export async function within<T>(known: Known, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw error instanceof StepFailure ? error : new StepFailure(error, known);
  }
}

const variantEra = (era: EraSetting | undefined) => (era !== undefined ? { era } : {});

/**
 * Each server's marker in a run with these policies and eras; undefined while the policies are
 * not known (nor, then, the eras), when every variant of a server's marker counts.
 */
export function markersOf(
  policies: Policy[] | undefined,
  eraOf: (server: string) => EraSetting | undefined,
): ((server: string) => string) | undefined {
  return (
    policies && ((server) => commentMarker(server, { policies, ...variantEra(eraOf(server)) }))
  );
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
 * The report of an audit that could not run, so that a job commenting from it (report-file)
 * marks the PR's comments failed; its path is the `report` output. A path that cannot be
 * written only warns: the step fails on the error already.
 */
async function writeFailedRun(run: FailedRun, env: NodeJS.ProcessEnv): Promise<void> {
  // Named in a warning if even the step's folder cannot be made.
  let path = join(env.RUNNER_TEMP ?? tmpdir(), 'mcp-annotation-auditor', 'report.json');
  try {
    path = await stepFile(env, 'report.json', 'the report');
    await writeConfined(path, renderFailedRun(run), await runnerTempRoot(env), 'the report');
    core.setOutput('report', path);
  } catch (error) {
    core.warning(
      `Could not write the report ${path}: ${terminalSafe(getErrorMessage(error), 200)}.`,
    );
  }
}

/**
 * The one error path: the step fails with the error, in the log, the summary, the `report` and
 * `result` outputs and the PR's comments. `readInput` reads an input that may not have parsed.
 */
export async function publishFailure(
  failure: unknown,
  token: string | undefined,
  readInput: (name: string) => string | undefined,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  const { error, known } =
    failure instanceof StepFailure ? failure : new StepFailure(failure, nothingKnown([]));
  const { secrets, policies, eraOf, target } = known;
  // Masking matches the token as printed; escaping for markdown would hide it from the mask.
  const redact = (text: string) =>
    redactText(token ? text.split(token).join('***') : text, secrets);
  const message = redact(describeError(error));
  // The summary and comment show the server's words apart, as a code block.
  const details = error instanceof AuditError ? error.details : undefined;
  const head =
    error instanceof AuditError && details
      ? redact(describeError(new AuditError(error.message, error.hint)))
      : message;
  core.setOutput('result', 'error');
  core.setFailed(linesSafe(message, 2_000));
  appendSummary(
    `### MCP tool annotations: the audit could not run\n\n${errorMarkdown(head, details, redact)}\n`,
  );
  const names = new Set(known.servers);
  if (!known.namesKnown && known.classListPath !== undefined)
    for (const name of await recordedServers(known.classListPath)) names.add(name);
  const servers = [...names].map((server) => ({
    server,
    ...(policies !== undefined ? variantEra(eraOf(server)) : {}),
  }));
  // A report-file job's report is the one it was given.
  if (readInput('report-file') === undefined)
    await writeFailedRun(
      {
        mode: readInput('mode') === 'update' ? 'update' : 'check',
        error: message,
        ...(policies ? { policies } : {}),
        servers,
      },
      env,
    );
  if (target)
    await markCommentsFailed(target, [...names], head, secrets, {
      markerOf: markersOf(policies, eraOf),
      details,
    });
}
