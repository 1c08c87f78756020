#!/usr/bin/env node
import { failedCommand, quickAnswer, type CliResult } from './cli/help.js';
import { enableCompileCache } from './compile-cache.js';
import { holdYoungGeneration } from './heap.js';
import { noWorkflowCommands } from './escape.js';
import { onUncaught } from './last-resort.js';
import { prestartForCli } from './cli/early.js';
import { stopEveryServer } from './server/early.js';
import { exitOnceWritten } from './server/process.js';

/**
 * A command that does real work: the server starts first (see cli/early.ts), then the rest of the
 * auditor loads.
 */
async function runCommand(argv: string[]): Promise<CliResult> {
  prestartForCli(argv);
  // After the server's start, before the bulk of the auditor loads (the cache serves that load).
  enableCompileCache();
  try {
    const { runCli } = await import('./cli/commands.js');
    // Once the modules are loaded: from here on, what survives is the audit's (see heap.ts).
    await holdYoungGeneration();
    return await runCli(argv);
  } catch (error) {
    return failedCommand(error);
  } finally {
    // Whatever failed after the audit, no server outlives the command.
    await stopEveryServer();
  }
}

/** The CLI entry: run the command, print its output, set the exit code (0, 1, or 2). */
async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const result = quickAnswer(argv) ?? (await runCommand(argv));
  if (result.stdout) process.stdout.write(noWorkflowCommands(result.stdout));
  if (result.stderr) process.stderr.write(noWorkflowCommands(result.stderr));
  process.exitCode = result.exitCode;
}

// An error nothing caught ends the command with exit code 2, said in one filtered line.
onUncaught(2);
void main().then(exitOnceWritten);
