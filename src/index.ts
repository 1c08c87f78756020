import { resolve } from 'node:path';
import { readEarly, type EarlyStart } from './prestart.js';
import { readInputs } from './config/inputs.js';
import { DEFAULT_SETTINGS } from './config/defaults.js';
import {
  exitOnceWritten,
  parseEnvEntries,
  prestartServer,
  serverEnvironment,
  stopUnclaimed,
} from './server/process.js';

/**
 * With a stdio `command` input, the server's spawn spec follows from the inputs alone: the server
 * starts now and boots while the rest of the action loads, reads the config file and the event,
 * and asks for the base class list (often a GitHub API request). The files the action trusts are
 * read first, before this PR code runs. The audit claims the server only if its own settings
 * yield the very same spec; otherwise it is stopped unused.
 */
function startEarly(env: NodeJS.ProcessEnv): EarlyStart | undefined {
  let early: EarlyStart | undefined;
  try {
    const inputs = readInputs(env);
    const [command, ...args] = inputs.overrides.command ?? [];
    // A report-file run only comments on an earlier audit: nothing of the PR may run there.
    if (command === undefined || inputs.reportFile !== undefined) return undefined;
    const serverEnv = serverEnvironment(parseEnvEntries(inputs.overrides.env ?? []));
    // The audit withholds the token from the server (or refuses a command line that holds it) and
    // says so; it starts that server itself.
    const token = inputs.token;
    if (
      token !== undefined &&
      [...Object.values(serverEnv), command, ...args].some((value) => value.includes(token))
    )
      return undefined;
    early = { enteredWorkingDirectory: false, files: new Map() };
    if (inputs.workingDirectory !== undefined) {
      process.chdir(resolve(env.GITHUB_WORKSPACE ?? process.cwd(), inputs.workingDirectory));
      early.enteredWorkingDirectory = true;
    }
    // The Claude Code settings files the check judges, too (files only the config file names
    // are read once it is parsed).
    early.files = readEarly(
      [
        env.GITHUB_EVENT_PATH,
        inputs.config,
        ...(inputs.claudeSettings ?? [DEFAULT_SETTINGS]),
      ].filter((p): p is string => Boolean(p)),
    );
    // A config file the audit will refuse (unreadable, or named but missing): start nothing.
    const config = early.files.get(resolve(inputs.config));
    if (config && 'error' in config) {
      const missing = (config.error as NodeJS.ErrnoException).code === 'ENOENT';
      if (!missing || inputs.configRequired) return early;
    }
    prestartServer({ command, args, env: serverEnv });
  } catch {
    // The audit reports what is wrong with the inputs or the working directory.
  }
  return early;
}

async function main(): Promise<void> {
  const early = startEarly(process.env);
  try {
    const { run } = await import('./action/main.js');
    await run(process.env, early);
  } finally {
    await stopUnclaimed();
  }
}

// An unexpected rejection is left for Node to report; it sets the exit code itself.
void main().then(exitOnceWritten);
