#!/usr/bin/env node
import type { CliResult } from './cli/help.js';
import { describeError } from './errors.js';
import { prestartForCli, stopUnclaimed } from './prestart.js';
import { exitOnceWritten } from './server/process.js';

/*
 * The CLI entry. It statically imports only what starts the server under audit (see prestart.ts):
 * every file loaded before the spawn delays it (about a millisecond each), so the help, the output
 * escaping and the commands load afterwards, while the server boots.
 */

/** A command that does real work; its server, if it names one, has already started. */
async function runCommand(argv: string[]): Promise<CliResult> {
  try {
    const { runCli } = await import('./cli/commands.js');
    return await runCli(argv);
  } catch (error) {
    return {
      exitCode: 2,
      stdout: '',
      stderr: `mcp-annotation-auditor: ${describeError(error)}\n`,
    };
  }
}

/** Run the command, print its output, set the exit code (0, 1, or 2). */
async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  // Starts nothing for a call that asks for help or the version, nor for one that does not parse.
  prestartForCli(argv);
  try {
    const [{ quickAnswer }, { noWorkflowCommands }] = await Promise.all([
      import('./cli/help.js'),
      import('./escape.js'),
    ]);
    const result = quickAnswer(argv) ?? (await runCommand(argv));
    if (result.stdout) process.stdout.write(noWorkflowCommands(result.stdout));
    if (result.stderr) process.stderr.write(noWorkflowCommands(result.stderr));
    process.exitCode = result.exitCode;
  } finally {
    await stopUnclaimed();
  }
}

// An unexpected rejection is left for Node to report; it sets the exit code itself.
void main().then(exitOnceWritten);
