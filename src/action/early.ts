import { resolve } from 'node:path';
import { directSpawn } from '../config/command-line.js';
import {
  CLIENT_PROJECT_DIRS,
  CLIENT_PROJECT_FILES,
  DEFAULT_JUSTIFICATIONS,
  DEFAULT_SETTINGS,
  LOCAL_SETTINGS,
} from '../config/defaults.js';
import { GRANT_LISTING, listGrantFiles } from '../config/claude-grants.js';
import { CLIENT_DIR_LISTING, listClientFolders } from '../config/folder-files.js';
import { readInputs } from '../config/inputs.js';
import { heldIn, stepCredentials } from './credentials.js';
import { startEarly } from '../server/early.js';
import { earlyReadError, listNow, readNow } from '../trusted.js';

/** The working-directory input is already the current directory. */
let enteredWorkingDirectoryEarly = false;

/**
 * The action's early start (see server/early.ts), for its stdio `command` input: the working
 * directory is entered and the files the action trusts (the event, the config file, the settings
 * files, Claude Code's commands and skills) are read first (trusted.ts), then the server starts and boots while the rest of the
 * action loads, reads the config file and the event, and asks for the base class list (often a
 * GitHub API request).
 */
export function prestartForAction(env: NodeJS.ProcessEnv): void {
  try {
    const inputs = readInputs(env);
    const command = inputs.overrides.command;
    // A report-file run only comments on an earlier audit: nothing of the PR may run there.
    if (!command?.length || inputs.reportFile !== undefined) return;
    const spec = directSpawn(command, inputs.overrides);
    // The audit withholds the step's credentials from the server (or refuses a command line that
    // holds one) and says so; it starts that server itself.
    const words = [...Object.values(spec.env), spec.command, ...spec.args];
    if (heldIn(words, stepCredentials(inputs.token, env))) return;
    if (inputs.workingDirectory !== undefined) {
      process.chdir(resolve(env.GITHUB_WORKSPACE ?? process.cwd(), inputs.workingDirectory));
      enteredWorkingDirectoryEarly = true;
    }
    // The client configs the check judges, too (files only the config file names are read once
    // it is parsed).
    const grants = listGrantFiles();
    listNow(GRANT_LISTING, grants);
    const folders = listClientFolders(CLIENT_PROJECT_DIRS);
    listNow(CLIENT_DIR_LISTING, folders);
    readNow(
      [
        env.GITHUB_EVENT_PATH,
        inputs.config,
        ...(inputs.claudeSettings ?? [DEFAULT_SETTINGS, LOCAL_SETTINGS]),
        ...grants,
        ...folders,
        ...CLIENT_PROJECT_FILES,
        inputs.overrides.justifications ?? DEFAULT_JUSTIFICATIONS,
      ].filter((p): p is string => Boolean(p)),
    );
    // A config file the audit will refuse (unreadable, or named but missing): start nothing.
    const configError = earlyReadError(inputs.config);
    if (configError) {
      const missing = (configError as NodeJS.ErrnoException).code === 'ENOENT';
      if (!missing || inputs.configRequired) return;
    }
    startEarly(spec);
  } catch {
    // The audit reports what is wrong with the inputs or the working directory.
  }
}

/** Whether the early start already entered the working-directory input. */
export function enteredWorkingDirectory(): boolean {
  return enteredWorkingDirectoryEarly;
}
