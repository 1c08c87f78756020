import * as core from '@actions/core';
import { noWorkflowCommands } from '../escape.js';

/**
 * One line of the action's log: the only way the action writes to it but through @actions/core's
 * commands (whose data it escapes). core.info writes its text as it is, and the runner acts on a
 * workflow command in it, `::name::` at a line's start or `##[name]` anywhere: a text from a
 * report file (the PR's artifact, in the trusted workflow_run job), a config file or a server
 * could forge an annotation, mask text or stop the runner's commands. ESLint refuses core.info
 * anywhere else in src/.
 */
export function logLine(text: string): void {
  core.info(noWorkflowCommands(text));
}
