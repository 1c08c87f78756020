import { AuditError } from '../errors.js';
import { parseEnvEntries, serverEnvironment, type SpawnSpec } from '../server/process.js';

/*
 * A server command line given directly (after --, or the command/start input), as words and as
 * the spec it is spawned with. Shared by the CLI, the action's inputs and the early start, and
 * small: the early start runs it before the rest of the auditor loads.
 */

/**
 * Splits a command line into words as a POSIX shell would for plain words and quotes (no
 * expansion, no pipes): the command is run directly, never through a shell.
 */
export function splitCommand(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (
        c === '\\' &&
        quote === '"' &&
        i + 1 < line.length &&
        '"\\$`'.includes(line[i + 1] as string)
      )
        word += line[++i];
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote)
    // Not quoted: a line that does not split has no words to judge, and may hold a secret.
    throw new AuditError(
      `The command line has an unclosed ${quote} quote (the one at character ${line.lastIndexOf(quote) + 1}).`,
      'Close the quote in the "command" (or "start") input, or in --start.',
    );
  if (inWord) words.push(word);
  return words;
}

/**
 * The spawn spec of a command line given directly, with the run's --env and --cwd (the env and
 * working-directory settings). Built here only, for the early start and for the audit alike: the
 * audit claims the server started early because both build the very same spec.
 */
export function directSpawn(
  words: readonly string[],
  options: { env?: string[] | undefined; cwd?: string | undefined },
): SpawnSpec {
  const [command, ...args] = words;
  if (command === undefined) throw new AuditError('The server command is empty.');
  return {
    command,
    args,
    ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
    env: serverEnvironment(parseEnvEntries(options.env ?? [])),
  };
}
