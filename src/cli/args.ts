import { parseArgs } from 'node:util';
import type { Mode } from '../report/report.js';
import { nearestKey } from '../config/nearest.js';
import { AuditError } from '../errors.js';

/*
 * The command line of list, check and update, parsed once, in a module small enough for the CLI
 * entry: the early start (early.ts) reads the server's command from the same parse that the
 * command itself then checks.
 */

/** A usage error, with where to read the usage of `command`. */
export function usageError(message: string, command = 'main'): AuditError {
  return new AuditError(
    message,
    `Run mcp-annotation-auditor ${command === 'main' ? '' : `${command} `}--help for usage.`,
  );
}

/** The options of list, check and update, as parseArgs takes them. */
const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  format: { type: 'string' },
  policy: { type: 'string', multiple: true },
  'fail-on': { type: 'string' },
  'class-list': { type: 'string' },
  'server-name': { type: 'string' },
  server: { type: 'string', multiple: true },
  config: { type: 'string' },
  base: { type: 'string' },
  'base-ref': { type: 'string' },
  approved: { type: 'boolean' },
  prune: { type: 'boolean' },
  env: { type: 'string', multiple: true },
  cwd: { type: 'string' },
  url: { type: 'string' },
  start: { type: 'string' },
  header: { type: 'string', multiple: true },
  'protocol-era': { type: 'string' },
  'start-timeout': { type: 'string' },
  'list-timeout': { type: 'string' },
  'max-pages': { type: 'string' },
  'max-tools': { type: 'string' },
  concurrency: { type: 'string' },
  settings: { type: 'string', multiple: true },
} as const;

const COMMANDS = ['list', 'check', 'update', 'rules'];

/**
 * Refuses what parseArgs would refuse, in words that lead to the fix: an unknown option with the
 * one probably meant, an option without its value, a value given to a switch.
 */
function checkOptions(args: string[], mode: Mode): void {
  const known = Object.keys(OPTIONS);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (!arg.startsWith('-') || arg === '-') continue;
    const long = arg.startsWith('--');
    const name = long ? (arg.slice(2).split('=')[0] ?? '') : arg.slice(1);
    const option = long ? known.find((k) => k === name) : name === 'h' ? 'help' : undefined;
    if (option === undefined) {
      const meant = nearestKey(name, known, false);
      throw usageError(
        `Unknown option ${arg.split('=')[0]}${meant !== undefined ? `; did you mean --${meant}?` : '.'}`,
        mode,
      );
    }
    const type = OPTIONS[option as keyof typeof OPTIONS].type;
    const inline = long && arg.includes('=');
    if (type === 'boolean' && inline)
      throw usageError(
        `--${option} is a switch and takes no value: write --${option} alone.`,
        mode,
      );
    if (type === 'string' && !inline) {
      const next = args[i + 1];
      if (next === undefined || next.startsWith('--'))
        throw usageError(
          `--${option} needs a value${next !== undefined ? ` (it is followed by the option ${next})` : ''}: write --${option} VALUE.`,
          mode,
        );
      i++;
    }
  }
}

function parseOwn(args: string[]) {
  return parseArgs({ args, allowPositionals: true, strict: true, options: OPTIONS });
}

/** The options given to list, check or update, by name. */
export type CliValues = ReturnType<typeof parseOwn>['values'];

/** A command line: `rules` (parsed by its own module) or list, check, update and their options. */
export type CommandLine =
  | { mode: 'rules'; args: string[] }
  | {
      mode: Mode;
      values: CliValues;
      positionals: string[];
      /** What follows `--`: the server's command line. */
      server: string[];
      /** Whether `--` was written (with nothing after it, that is an error of its own). */
      dashdash: boolean;
    };

/** Parses argv (the arguments after the program's name); a usage error names what is wrong. */
export function parseCommandLine(argv: string[]): CommandLine {
  const dashdash = argv.indexOf('--');
  const own = dashdash < 0 ? argv : argv.slice(0, dashdash);
  const command = own[0];
  if (command === 'rules') return { mode: 'rules', args: argv.slice(1) };
  if (command !== 'list' && command !== 'check' && command !== 'update') {
    const meant = nearestKey(command ?? '', COMMANDS, false);
    throw usageError(
      `Unknown command "${command}"${meant !== undefined ? `; did you mean ${meant}?` : `: use ${COMMANDS.join(', ')}.`}`,
    );
  }
  checkOptions(own.slice(1), command);
  try {
    const { values, positionals } = parseOwn(own.slice(1));
    const server = dashdash < 0 ? [] : argv.slice(dashdash + 1);
    return { mode: command, values, positionals, server, dashdash: dashdash >= 0 };
  } catch (error) {
    throw usageError((error as Error).message, command);
  }
}
