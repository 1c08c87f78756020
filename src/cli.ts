#!/usr/bin/env node
import { quickAnswer, type CliResult } from './cli/help.js';
import { describeError } from './errors.js';
import { noWorkflowCommands } from './escape.js';
import {
  exitOnceWritten,
  parseEnvEntries,
  prestartServer,
  serverEnvironment,
  stopUnclaimed,
} from './server/process.js';

/**
 * For `<command> [options] -- <server...>`, the server's spawn spec follows from argv alone, so
 * the server starts now and boots while the rest of the auditor (zod, yaml, the MCP SDK) loads.
 * The audit claims it only if its own, full parsing yields the very same spec.
 */
function prestart(argv: string[]): void {
  const dashdash = argv.indexOf('--');
  const [command, ...server] = dashdash < 0 ? [] : argv.slice(dashdash + 1);
  if (command === undefined || !['list', 'check', 'update'].includes(argv[0] ?? '')) return;
  const env: string[] = [];
  let cwd: string | undefined;
  const own = argv.slice(1, dashdash);
  for (let i = 0; i < own.length; i++) {
    const arg = own[i] as string;
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    if (flag === '--help' || flag === '-h' || flag === '--url') return;
    if (flag !== '--env' && flag !== '--cwd') continue;
    const value = inline ?? own[++i];
    if (value === undefined) return;
    if (flag === '--env') env.push(value);
    else cwd = value;
  }
  try {
    prestartServer({
      command,
      args: server,
      ...(cwd !== undefined ? { cwd } : {}),
      env: serverEnvironment(parseEnvEntries(env)),
    });
  } catch {
    // The full parse reports what is wrong with these arguments.
  }
}

/** A command that does real work: the server starts first, then the rest of the auditor loads. */
async function runCommand(argv: string[]): Promise<CliResult> {
  prestart(argv);
  try {
    const { runCli } = await import('./cli/commands.js');
    return await runCli(argv);
  } catch (error) {
    return {
      exitCode: 2,
      stdout: '',
      stderr: `mcp-annotation-auditor: ${describeError(error)}\n`,
    };
  } finally {
    await stopUnclaimed();
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

// An unexpected rejection is left for Node to report; it sets the exit code itself.
void main().then(exitOnceWritten);
