import { parseArgs } from 'node:util';
import { nearestKey } from '../config/nearest.js';
import {
  COMMANDS,
  ROWS,
  type Command,
  type FlagSpec,
  type OptionValues,
} from '../config/options.js';
import type { Kind, Refusal } from '../config/option-kinds.js';
import { AuditError } from '../errors.js';

/*
 * The command line, parsed once from the option table (config/options.ts), in a module small
 * enough for the CLI entry: the early start (cli/early.ts) reads the server's command from the same
 * parse that the command itself then checks. Every value is read by its row's kind here, so the
 * commands get checked values.
 */

/** A usage error, with where to read the usage of `command`. */
export function usageError(message: string, command = 'main'): AuditError {
  return new AuditError(
    message,
    `Run mcp-annotation-auditor ${command === 'main' ? '' : `${command} `}--help for usage.`,
  );
}

/** A row with a flag. */
export type FlagRow = (typeof ROWS)[number] & { flag: FlagSpec };

/** The rows whose flag `command` knows: the ones it takes, and the ones it refuses saying why. */
export function flagRows(command: Command): FlagRow[] {
  return ROWS.filter(
    (row): row is FlagRow =>
      row.flag !== undefined &&
      (row.flag.commands.includes(command) || row.flag.ignoredBy?.[command] !== undefined),
  );
}

/** The kind of value a flag takes in `command`. */
export function kindIn(row: FlagRow, command: Command): Kind<unknown> {
  return row.flag.per?.[command]?.kind ?? row.kind;
}

/**
 * Refuses what parseArgs would refuse, in words that lead to the fix: an unknown option with the
 * one probably meant, an option without its value, a value given to a switch.
 */
function checkOptions(args: string[], mode: Command, rows: FlagRow[]): void {
  const known = rows.map((row) => row.flag.name);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (!arg.startsWith('-') || arg === '-') continue;
    const long = arg.startsWith('--');
    const name = long ? (arg.slice(2).split('=')[0] ?? '') : arg.slice(1);
    const row = rows.find((r) => (long ? r.flag.name === name : r.flag.short === name));
    if (row === undefined) {
      const meant = nearestKey(name, known, false);
      throw usageError(
        `Unknown option ${arg.split('=')[0]}${meant !== undefined ? `; did you mean --${meant}?` : '.'}`,
        mode,
      );
    }
    const option = row.flag.name;
    const inline = long && arg.includes('=');
    if (row.kind.arity === 'switch' && inline)
      throw usageError(
        `--${option} is a switch and takes no value: write --${option} alone.`,
        mode,
      );
    if (row.kind.arity !== 'switch' && !inline) {
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

/** The message for a value a flag does not take. */
function refusedValue(flag: string, kind: Kind<unknown>, refused: Refusal): string {
  return (
    kind.flagMessage?.(flag, refused) ??
    `--${flag} must be ${kind.expected.flag}, not "${refused.shown}"${refused.note !== undefined ? ` (${refused.note})` : ''}.`
  );
}

/** Each flag given, read by its row's kind, by option id; a flag `mode` would ignore is refused. */
function readValues(
  given: Record<string, string | boolean | (string | boolean)[] | undefined>,
  mode: Command,
  rows: FlagRow[],
): OptionValues {
  const values: Record<string, unknown> = {};
  for (const row of rows) {
    const { flag } = row;
    const raw = given[flag.name];
    if (raw === undefined) continue;
    if (!flag.commands.includes(mode))
      throw usageError(
        `--${flag.name} would be ignored: ${flag.ignoredBy?.[mode]}. Give it to ${flag.commands.join(' or ')}, or leave it out.`,
        mode,
      );
    const texts = (Array.isArray(raw) ? raw : [raw]).map(String);
    const kind = kindIn(row, mode);
    const read = kind.parse(
      flag.split ? texts.flatMap((t) => t.split(flag.split as RegExp)).filter(Boolean) : texts,
    );
    if ('refused' in read) throw usageError(refusedValue(flag.name, kind, read.refused), mode);
    values[row.id] = read.value;
  }
  return values;
}

/** A command line: the command, its options' values by id, and the server's command line. */
export interface CommandLine {
  mode: Command;
  values: OptionValues;
  positionals: string[];
  /** What follows `--`: the server's command line. */
  server: string[];
  /** Whether `--` was written (with nothing after it, that is an error of its own). */
  dashdash: boolean;
}

/** Parses argv (the arguments after the program's name); a usage error names what is wrong. */
export function parseCommandLine(argv: string[]): CommandLine {
  const dashdash = argv.indexOf('--');
  const own = dashdash < 0 ? argv : argv.slice(0, dashdash);
  const command = own[0];
  if (!(COMMANDS as readonly (string | undefined)[]).includes(command)) {
    const meant = nearestKey(command ?? '', [...COMMANDS], false);
    throw usageError(
      `Unknown command "${command}"${meant !== undefined ? `; did you mean ${meant}?` : `: use ${COMMANDS.join(', ')}.`}`,
    );
  }
  const mode = command as Command;
  const rows = flagRows(mode);
  checkOptions(own.slice(1), mode, rows);
  let parsed;
  try {
    parsed = parseArgs({
      args: own.slice(1),
      allowPositionals: true,
      strict: true,
      options: Object.fromEntries(
        rows.map((row) => [
          row.flag.name,
          {
            type: row.kind.arity === 'switch' ? ('boolean' as const) : ('string' as const),
            multiple: row.kind.arity === 'many',
            ...(row.flag.short !== undefined ? { short: row.flag.short } : {}),
          },
        ]),
      ),
    });
  } catch (error) {
    throw usageError((error as Error).message, mode);
  }
  const server = dashdash < 0 ? [] : argv.slice(dashdash + 1);
  return {
    mode,
    values: readValues(parsed.values, mode, rows),
    positionals: parsed.positionals,
    server,
    dashdash: dashdash >= 0,
  };
}
