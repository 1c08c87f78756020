#!/usr/bin/env node
import { runCli, type CliResult } from './commands.js';
import { describeError } from './errors.js';

/** The CLI entry: run the command, print its output, set the exit code (0, 1, or 2). */
async function main(): Promise<void> {
  let result: CliResult;
  try {
    result = await runCli(process.argv.slice(2));
  } catch (error) {
    result = {
      exitCode: 2,
      stdout: '',
      stderr: `mcp-annotation-auditor: ${describeError(error)}\n`,
    };
  }
  if (result.stdout) process.stdout.write(result.stdout);
  if (result.stderr) process.stderr.write(result.stderr);
  process.exitCode = result.exitCode;
}

void main();
