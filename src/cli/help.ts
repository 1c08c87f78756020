import type { Command, FlagSpec } from '../config/options.js';
import { describeError } from '../errors.js';
import { linesSafe } from '../escape.js';
import { VERSION } from '../version.js';
import { flagRows, kindIn, type FlagRow } from './args.js';

/*
 * Usage text, in a module small enough for the CLI entry to answer --help and --version without
 * loading the rest of the auditor.
 */

export interface CliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/**
 * A command that could not run: exit code 2 and the error for a person. It may quote the PR's
 * files (a config key, a class list field), so it is shown line by line with every control
 * character escaped, as the server's own words are.
 */
export function failedCommand(error: unknown): CliResult {
  return {
    exitCode: 2,
    stdout: '',
    stderr: `mcp-annotation-auditor: ${linesSafe(describeError(error), Infinity)}\n`,
  };
}

/** Help's width, and the column each option's words start at. */
const WIDTH = 95;
const COLUMN = 29;

/** `text` in lines of at most `width` characters, broken between words. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return line ? [...lines, line] : lines;
}

/** One entry of help: the option as written, then its words, wrapped at the column. */
function entry(label: string, doc: string): string {
  const head = `  ${label}`;
  const first = head.length < COLUMN - 1 ? head.padEnd(COLUMN) : `${head}   `;
  const [line = '', ...rest] = wrap(doc, WIDTH - first.length);
  const more = wrap(rest.join(' '), WIDTH - COLUMN).map((l) => `${' '.repeat(COLUMN)}${l}`);
  return [`${first}${line}`, ...more].join('\n');
}

/** A flag as help writes it in `command`: `-h, --help`, `--class-list FILE`, `--format json|text`. */
function label(row: FlagRow, command: Command): string {
  const { flag } = row;
  const kind = kindIn(row, command) as { values?: readonly string[] };
  const value = flag.per?.[command]?.value ?? flag.value ?? kind.values?.join('|');
  return `${flag.short !== undefined ? `-${flag.short}, ` : ''}--${flag.name}${value !== undefined ? ` ${value}` : ''}`;
}

/** The entries of the options `command` takes in help section `group` (every group: undefined). */
function entries(command: Command, group?: FlagSpec['group']): string[] {
  return flagRows(command)
    .filter((row) => row.flag.commands.includes(command))
    .filter((row) => group === undefined || row.flag.group === group)
    .map((row) => entry(label(row, command), row.flag.per?.[command]?.doc ?? row.flag.doc));
}

/** The options of a command that audits a server: its own, which server, the server options. */
function auditOptions(command: 'list' | 'check' | 'update'): string {
  const title = `${command[0]?.toUpperCase()}${command.slice(1)} options:`;
  return [
    title,
    ...entries(command, 'own'),
    '',
    'Server (one of):',
    entry(
      '-- <command> [args...]',
      'start a stdio server (everything after -- is its command line)',
    ),
    ...entries(command, 'server'),
    entry('(neither)', 'the servers listed in the config file'),
    'Server options:',
    ...entries(command, 'common'),
  ].join('\n');
}

/** What each command does, before its options. */
const ABOUT = {
  list: `Lists every tool with each hint as declared true, declared false or absent (-), the class
(read, edit, delete), the open/closed reach and the title. Exits 0 unless the audit cannot run.`,
  check: `Checks each tool against the enabled policies and the class list, and (with a base) what
the change does to the tool surface.`,
  update: `Writes the class list from the live server: sorted, stable, each tool's "reason" kept
(also across a rename). Refuses to overwrite a file it cannot parse. Writes only inside the
repository (git's top level, else the current folder): a path or symbolic link leading out of
it is refused before any server starts.`,
  rules: `Prints the Claude Code settings {"permissions": {"allow", "ask", "deny"}} that the reviewed
class list maps to, one rule per tool by full name (mcp__<server>__<tool>), sorted. Default
mapping: read -> allow, edit -> ask, delete -> deny; clientRules in the config file changes it
per class, per reach and per tool. The live server is never asked: rules come from the list.`,
  justifications: `Prints (or --write) OpenAI's tool-hint-justifications.json for the reviewed class list: per
tool, readOnlyHint, openWorldHint and destructiveHint as recorded (null where a hint is not
declared: it blocks a submission), and a TODO placeholder for each justification, which a person
writes. The live server is never asked. check reports the file against the tools (openai policy).`,
};

const SERVER_USAGE = '[options] -- <command> [args...]';

/** Help: the main page, and each command's, its options from the option table (config/options.ts). */
export const HELP: Record<'main' | Command, string> = {
  main: `mcp-annotation-auditor ${VERSION}: keep an MCP server's tool annotations honest.

Usage:
  mcp-annotation-auditor list   ${SERVER_USAGE}
  mcp-annotation-auditor check  ${SERVER_USAGE}
  mcp-annotation-auditor update ${SERVER_USAGE}
  mcp-annotation-auditor rules  ${flagRows('rules')
    .filter((row) => row.flag.group === 'own' && row.flag.commands.includes('rules'))
    .map((row) => `[${label(row, 'rules')}]`)
    .join(' ')}
  mcp-annotation-auditor justifications [--write FILE] [--server NAME]

Commands:
  list     list the server's tools with their hints, class (read/edit/delete) and reach
  check    check annotations against directory policies and the committed class list
  update   write the class list from the live server (commit it to accept a change)
  rules    print (or --write) the Claude Code permissions the class list maps to
  justifications  print (or --write) OpenAI's hint justifications file from the class list

Run mcp-annotation-auditor <command> --help for its options.
Exit codes: 0 passed, 1 findings at or above --fail-on, 2 the audit could not run.`,
  list: `Usage: mcp-annotation-auditor list ${SERVER_USAGE}\n\n${ABOUT.list}\n\n${auditOptions('list')}`,
  check: `Usage: mcp-annotation-auditor check ${SERVER_USAGE}\n\n${ABOUT.check}\n\n${auditOptions('check')}`,
  update: `Usage: mcp-annotation-auditor update ${SERVER_USAGE}\n\n${ABOUT.update}\n\n${auditOptions('update')}`,
  rules: `Usage: mcp-annotation-auditor rules [options]\n\n${ABOUT.rules}\n\nRules options:\n${entries('rules').join('\n')}`,
  justifications: `Usage: mcp-annotation-auditor justifications [options]\n\n${ABOUT.justifications}\n\nJustifications options:\n${entries('justifications').join('\n')}`,
};

/** The answer to a call that only asks for help or the version; undefined for real work. */
export function quickAnswer(argv: string[]): CliResult | undefined {
  const dashdash = argv.indexOf('--');
  const own = dashdash < 0 ? argv : argv.slice(0, dashdash);
  const command = own[0];
  if (command === undefined) return { exitCode: 2, stdout: '', stderr: `${HELP.main}\n` };
  if (command === '-h' || command === '--help' || command === 'help')
    return { exitCode: 0, stdout: `${HELP.main}\n`, stderr: '' };
  if (command === '--version' || command === '-v')
    return { exitCode: 0, stdout: `${VERSION}\n`, stderr: '' };
  const text = Object.hasOwn(HELP, command) ? HELP[command as Command] : undefined;
  if (
    text !== undefined &&
    command !== 'main' &&
    own.slice(1).some((a) => a === '--help' || a === '-h')
  )
    return { exitCode: 0, stdout: `${text}\n`, stderr: '' };
  return undefined;
}
