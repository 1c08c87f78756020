import { DEFAULT_CLASS_LIST, DEFAULT_CONFIG } from '../config/defaults.js';
import { VERSION } from '../version.js';

/*
 * Usage text, in a module small enough for the CLI entry to answer --help and --version without
 * loading the rest of the auditor.
 */

export interface CliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

const COMMON_HELP = `Server (one of):
  -- <command> [args...]     start a stdio server (everything after -- is its command line)
  --url URL                  a Streamable HTTP endpoint; --header 'Name: value' (repeatable);
                             --start 'command line' launches it first and stops it at the end
  (neither)                  the servers listed in the config file
Server options:
  --env KEY=VALUE | KEY      add to the server's minimal environment (repeatable); a bare KEY
                             passes this process's value through. Nothing else is inherited
                             but PATH, HOME and the like: never GITHUB_TOKEN or other secrets.
  --cwd DIR                  working directory for the server
  --server-name NAME         name in mcp__<name>__<tool> (default: the server's own name)
  --server NAME              audit only this server of the config file (repeatable)
  --protocol-era ERA         legacy (default), modern (2026-07-28), or both
  --start-timeout SECONDS    time to start and finish the handshake (default 30)
  --list-timeout SECONDS     time for every page of tools/list (default 60)
  --max-pages N, --max-tools N   bounds on the listing (default 1000 pages, 100000 tools)
  --concurrency N            servers of the config file audited at once (default: twice
                             the number of CPU cores, at least 4)
  --config FILE              config file (default ${DEFAULT_CONFIG} when it exists)
  -h, --help                 this help`;

const FORMAT_HELP = `  --format text|json|markdown   output format (default text)`;

export const HELP: Record<string, string> = {
  main: `mcp-annotation-auditor ${VERSION}: keep an MCP server's tool annotations honest.

Usage:
  mcp-annotation-auditor list   [options] -- <command> [args...]
  mcp-annotation-auditor check  [options] -- <command> [args...]
  mcp-annotation-auditor update [options] -- <command> [args...]
  mcp-annotation-auditor rules  [--class-list FILE] [--format json|text] [--write FILE]

Commands:
  list     list the server's tools with their hints, class (read/edit/delete) and reach
  check    check annotations against directory policies and the committed class list
  update   write the class list from the live server (commit it to accept a change)
  rules    print (or --write) the Claude Code permissions the class list maps to

Run mcp-annotation-auditor <command> --help for its options.
Exit codes: 0 passed, 1 findings at or above --fail-on, 2 the audit could not run.`,
  list: `Usage: mcp-annotation-auditor list [options] -- <command> [args...]

Lists every tool with each hint as declared true, declared false or absent (-), the class
(read, edit, delete), the open/closed reach and the title. Exits 0 unless the audit cannot run.

Options:
${FORMAT_HELP}

${COMMON_HELP}`,
  check: `Usage: mcp-annotation-auditor check [options] -- <command> [args...]

Checks each tool against the enabled policies and the class list, and (with a base) what
the change does to the tool surface.

Check options:
  --policy LIST              claude,openai,explicit (default claude,openai; repeatable)
  --fail-on LEVEL            error (default), warning, notice or never
  --class-list FILE          the reviewed class list (default ${DEFAULT_CLASS_LIST})
  --base FILE                the class list before the change, to compare with
  --base-ref REF             read the base class list with git show REF:<class list> (at the
                             path REF's config file names), and compare REF's config file
  --approved                 the change is approved: hint-dropped and class-relaxed become notices
  --settings FILE            a Claude Code settings file to check against the class list
                             (repeatable, merged in order as Claude Code merges them; default
                             .claude/settings.json when it exists)
  --format text|json|markdown|sarif   output format (default text; sarif: SARIF 2.1.0 for
                             code scanning, the findings on the class list's lines)

${COMMON_HELP}`,
  update: `Usage: mcp-annotation-auditor update [options] -- <command> [args...]

Writes the class list from the live server: sorted, stable, each tool's "reason" kept
(also across a rename). Refuses to overwrite a file it cannot parse. Writes only inside the
repository (git's top level, else the current folder): a path or symbolic link leading out of
it is refused before any server starts.

Update options:
  --class-list FILE          the class list to write (default ${DEFAULT_CLASS_LIST})
  --prune                    also remove the entries of servers this run does not audit
                             (without it they are kept; every removed entry is listed)
${FORMAT_HELP}

${COMMON_HELP}`,
  rules: `Usage: mcp-annotation-auditor rules [options]

Prints the Claude Code settings {"permissions": {"allow", "ask", "deny"}} that the reviewed
class list maps to, one rule per tool by full name (mcp__<server>__<tool>), sorted. Default
mapping: read -> allow, edit -> ask, delete -> deny; clientRules in the config file changes it
per class, per reach and per tool. The live server is never asked: rules come from the list.

Rules options:
  --class-list FILE          the reviewed class list (default ${DEFAULT_CLASS_LIST})
  --config FILE              config file (default ${DEFAULT_CONFIG} when it exists)
  --format json|text         json (default): the settings object; text: a table
  --write FILE               merge into a settings file (e.g. .claude/settings.json): only the
                             mcp__ rules of the class list's servers are replaced; every other
                             key, rule and byte stays. Every rule it removes or moves is
                             listed, with why. Written atomically, only inside the repository;
                             a file that does not parse, or holds "permissions" (or one of its
                             lists) twice, is never overwritten. A second run changes nothing.
  -h, --help                 this help`,
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
  const text = HELP[command];
  if (
    text !== undefined &&
    command !== 'main' &&
    own.slice(1).some((a) => a === '--help' || a === '-h')
  )
    return { exitCode: 0, stdout: `${text}\n`, stderr: '' };
  return undefined;
}
