import { parseCommandLine } from './args.js';
import { directSpawn } from '../config/command-line.js';
import { startEarly } from '../server/early.js';

/**
 * The CLI's early start (see server/early.ts): for `list|check|update [options] -- <server...>`,
 * the server after `--`, with --env and --cwd, from the very parse the command then checks. A
 * command line that does not parse starts nothing: the command reports what is wrong with it.
 */
export function prestartForCli(argv: string[]): void {
  try {
    const line = parseCommandLine(argv);
    if (
      line.mode === 'rules' ||
      line.mode === 'justifications' ||
      line.values.help ||
      line.values.url !== undefined
    )
      return;
    if (!line.server.length) return;
    startEarly(directSpawn(line.server, line.values));
  } catch {
    // The command reports what is wrong with these arguments.
  }
}
