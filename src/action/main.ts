// action/: the GitHub Action around the audit (inputs and event, audit or report file, then the
// sinks: job summary, outputs, annotations, PR comments, through @actions/core and
// @actions/github). May import everything but cli/ (scripts/layers.mjs); nothing imports
// action/ but src/index.ts.
import * as core from '@actions/core';
import { getOptionalInput, inputSecrets } from '../config/inputs.js';
import { stopEveryServer } from '../server/early.js';
import type { Connect } from '../server/listing.js';
import { forgetTopLevels, withGit, type Git } from '../git.js';
import { knownOf, readContext } from './context.js';
import { nothingKnown, publishFailure, within } from './failure.js';
import { publish } from './publish.js';
import { auditOrReportFile } from './run-audit.js';
import { newStep } from './step-dir.js';

/**
 * What a caller may set besides the environment: how each server is reached (by default started
 * or fetched), and the git the base and the repository's root are read through (by default the
 * `git` process; see git.ts). Tests run the whole action in one process with servers and a clone
 * in memory through them.
 */
export interface ActionSeams {
  connect?: Connect;
  git?: Git;
  /** The pauses before each retry of a GitHub API GET (by default 0.5 s, then 1.5 s). */
  retryDelays?: readonly number[];
}

/**
 * The action: context (inputs, event, PR, config) -> the audit, or a report file -> publish
 * (summary, outputs, annotations, comments). Each step's error carries what the run knew (see
 * Known), and goes the one error path, publishFailure. The entry may have started the server and
 * read the trusted files before loading this (see action/early.ts). Everything it reads comes from
 * `env` (inputs, event, workspace, API URL); @actions/core writes the runner's files named in
 * process.env.
 */
export function run(env: NodeJS.ProcessEnv = process.env, seams: ActionSeams = {}): Promise<void> {
  forgetTopLevels();
  return seams.git ? withGit(seams.git, () => runAction(env, seams)) : runAction(env, seams);
}

async function runAction(env: NodeJS.ProcessEnv, seams: ActionSeams): Promise<void> {
  newStep();
  // Masked before anything can print it: an input error may quote a value that holds it.
  const token = getOptionalInput('github-token', env);
  if (token) core.setSecret(token);
  // So are the url and headers inputs' secrets; the config file's, once it is read.
  const secrets = inputSecrets(env);
  for (const secret of secrets) core.setSecret(secret);
  const known = nothingKnown(secrets);
  try {
    const context = await within(known, () => readContext(env, known, seams.retryDelays));
    const contextKnown = knownOf(context, known);
    const outcome = await within(contextKnown, () =>
      auditOrReportFile(context, contextKnown, seams.connect),
    );
    await within(outcome.known, () => publish(outcome, context));
  } catch (error) {
    // A failure before the audit (the config file, say) finds the server started early still
    // running: it is stopped first, so that what the failure writes is not written under it.
    await stopEveryServer();
    await publishFailure(error, token, (name) => getOptionalInput(name, env), env);
  }
}
