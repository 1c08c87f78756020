import { describeError } from './errors.js';
import { stopEveryServer } from './server/early.js';
import { exitOnceWritten, holdExit } from './server/process.js';

/**
 * The last word on an error nothing caught (a throw in a callback, a rejection nobody awaited):
 * Node would print its message and stack as they are, and a message can carry the audited
 * server's words, a `::` workflow command among them, into the action's log. Here it is one line,
 * through the same filter as every other output (escape.ts), the servers are stopped, and the
 * process ends with `exitCode` (the CLI's 2, the action's 1): an 'exit' listener sets it last, so
 * a run that carried on after the error and set 0 cannot pass. A second error only keeps the code.
 */
export function onUncaught(exitCode: number): void {
  let handled = false;
  process.on('uncaughtException', (error) => {
    process.exitCode = exitCode;
    if (handled) return;
    handled = true;
    process.on('exit', () => {
      process.exitCode = exitCode;
    });
    // Loaded here only: the entries stay small (see cli/early.ts and action/early.ts). A run that
    // carries on and finishes first waits for this word before it exits (holdExit).
    const word = import('./escape.js')
      .then(({ noWorkflowCommands, terminalSafe }) =>
        process.stderr.write(
          `${noWorkflowCommands(`mcp-annotation-auditor: ${terminalSafe(describeError(error), 2000)}`)}\n`,
        ),
      )
      .then(stopEveryServer)
      .catch(() => undefined);
    holdExit(word);
    void word.finally(exitOnceWritten);
  });
}
