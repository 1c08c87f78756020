import module from 'node:module';
import { resolve } from 'node:path';
import { readInputs } from './inputs.js';
import {
  isDirectory,
  parseEnvEntries,
  prestartServer,
  serverEnvironment,
  stopUnclaimed,
} from './process.js';

/**
 * With a stdio `command` input, the server's spawn spec follows from the inputs alone: the server
 * starts now and boots while the rest of the action loads and reads the event, the base class
 * list (often a GitHub API request) and the config file. The audit claims it only if its own
 * settings yield the very same spec; otherwise it is stopped unused.
 */
function prestart(env: NodeJS.ProcessEnv): void {
  try {
    const inputs = readInputs(env);
    const [command, ...args] = inputs.overrides.command ?? [];
    // A report-file run only comments on an earlier audit: nothing of the PR may run there.
    if (command === undefined || inputs.reportFile !== undefined) return;
    const serverEnv = serverEnvironment(parseEnvEntries(inputs.overrides.env ?? []));
    // The audit withholds the token from the server and says so; it starts that server itself.
    const token = inputs.token;
    if (token !== undefined && Object.values(serverEnv).some((value) => value.includes(token)))
      return;
    let cwd: string | undefined;
    if (inputs.workingDirectory !== undefined) {
      cwd = resolve(env.GITHUB_WORKSPACE ?? process.cwd(), inputs.workingDirectory);
      if (!isDirectory(cwd)) return;
    }
    prestartServer({ command, args, ...(cwd !== undefined ? { cwd } : {}), env: serverEnv });
  } catch {
    // The audit reports what is wrong with the inputs.
  }
}

async function main(): Promise<void> {
  prestart(process.env);
  // Node 22.1+ keeps compiled code between runs (a self-hosted runner audits every PR).
  (module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
  try {
    const { run } = await import('./main.js');
    await run();
  } finally {
    await stopUnclaimed();
  }
}

void main();
