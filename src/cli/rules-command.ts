import type { ClassList } from '../core/classlist.js';
import { confinedPath, repositoryRoot, writeConfined } from '../confined.js';
import { readClassList, readSettingsFile } from '../files.js';
import {
  mergeSettings,
  parseMapping,
  permissionsFor,
  serversOf,
  type Permissions,
} from '../clients/claude-code/claude-settings.js';
import { readConfigFile, writtenServerKeys } from '../config/file.js';
import { DEFAULT_CLASS_LIST, DEFAULT_CONFIG } from '../config/defaults.js';
import { AuditError } from '../errors.js';
import { reviewedJson, terminalSafe } from '../escape.js';
import type { CliResult } from './help.js';
import type { CommandLine } from './args.js';
import { NPX_COMMAND } from '../version.js';
import { DECISIONS } from '../clients/claude-code/permissions.js';
import type { RemovedRule } from '../clients/claude-code/removed-rules.js';
import { claudeCode } from '../clients/claude-code/client.js';
import { chosenClients, runClientRules } from './client-rules-command.js';

function usageError(message: string): AuditError {
  return new AuditError(message, `Run ${NPX_COMMAND} rules --help for usage.`);
}

/** The class list a command reads: it must exist, since rules come from it alone. */
export async function requiredClassList(path: string): Promise<ClassList> {
  const read = await readClassList(path);
  if (!read)
    throw new AuditError(
      `There is no class list at ${path}.`,
      `Client rules come from the reviewed class list, never from live hints alone: run ${NPX_COMMAND} update, review and commit the file, then run rules.`,
    );
  return read.list;
}

function renderTable(list: ClassList, permissions: Permissions): string {
  const rows: string[][] = [];
  for (const decision of DECISIONS)
    for (const name of permissions[decision]) {
      const r = list.tools.get(name);
      rows.push([decision, terminalSafe(name, 200), r?.class ?? '', r?.reach ?? '']);
    }
  if (!rows.length) return 'The class list records no tools: no rules.\n';
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((row) => (row[i] as string).length)));
  const line = (row: string[]) =>
    row
      .map((cell, i) => (i < 3 ? cell.padEnd(widths[i] as number) : cell))
      .join('  ')
      .trimEnd();
  return `${[line(['rule', 'tool', 'class', 'reach']), ...rows.map(line)].join('\n')}\n`;
}

/** The lines that tell each rule a write takes out, and why: said before the file is written. */
function removedLines(target: string, removed: RemovedRule[]): string {
  if (!removed.length) return '';
  const lines = removed.map(
    (r) =>
      `  permissions.${r.list} line ${r.line}: ${terminalSafe(r.rule, 200)} (${terminalSafe(r.why, 300)})`,
  );
  const n = removed.length;
  return `${n === 1 ? 'This rule' : `These ${n} rules`} of ${terminalSafe(target, 200)} ${n === 1 ? 'is' : 'are'} removed or replaced (the class list's rules replace every rule of its servers):\n${lines.join('\n')}\n`;
}

/**
 * `rules --write`: merges the rules into the settings file, inside the repository only (a path
 * or link that leads out of it is refused before the file is read), and says what it removed.
 */
async function writeRules(
  target: string,
  format: string,
  list: ClassList,
  permissions: Permissions,
  servers: Set<string>,
): Promise<CliResult> {
  const root = await repositoryRoot();
  const what = 'the settings file';
  // Checked before it is read, so that a link out of the repository is never read either.
  await confinedPath(target, root, what);
  const existing = await readSettingsFile(target);
  const merged = mergeSettings(existing, permissions, servers);
  const changed = merged.text !== existing?.text;
  if (changed) await writeConfined(target, merged.text, root, what);
  const count = DECISIONS.reduce((n, d) => n + permissions[d].length, 0);
  const names = [...servers].sort().map((s) => terminalSafe(s, 100));
  const told = removedLines(target, merged.removed);
  return {
    exitCode: 0,
    stdout:
      format === 'text'
        ? `${renderTable(list, permissions)}\n${told}${changed ? 'Wrote' : 'Unchanged:'} ${terminalSafe(target, 200)} (${count} rule${count === 1 ? '' : 's'} for ${names.length === 1 ? 'server' : 'servers'} ${names.join(', ') || '(none)'}; every other key and rule kept).\n`
        : `${reviewedJson({ written: changed, file: target, permissions, removed: merged.removed }, 2)}\n`,
    stderr: format === 'text' ? '' : told,
  };
}

/** `rules`: the Claude Code permissions the reviewed class list maps to, printed or merged into a file. */
export async function runRules({ values, positionals, dashdash }: CommandLine): Promise<CliResult> {
  if (positionals.length || dashdash)
    throw usageError(
      `Unexpected argument "${positionals[0] ?? '--'}": rules reads the class list and starts no server.`,
    );
  const format = values.rulesFormat ?? 'json';
  const configPath = values.config ?? DEFAULT_CONFIG;
  const file = await readConfigFile(configPath, values.config !== undefined);
  const mapping = parseMapping(file?.clientRules, configPath);
  const classListPath = values.classList ?? file?.classList ?? DEFAULT_CLASS_LIST;
  const list = await requiredClassList(classListPath);
  const clients = chosenClients(values.clients ?? file?.clients);
  // Claude Code alone keeps the output it always had (the permissions object, the rules a
  // write removes); any other choice is the registry's generic form.
  if (clients.length !== 1 || clients[0]?.id !== claudeCode.id)
    return runClientRules(clients, list, mapping, {
      format,
      keys: writtenServerKeys(file),
      ...(values.write !== undefined ? { write: values.write } : {}),
    });
  const permissions = permissionsFor(list, mapping);
  if (values.write !== undefined)
    return writeRules(values.write, format, list, permissions, serversOf(list));
  return {
    exitCode: 0,
    stdout:
      format === 'text' ? renderTable(list, permissions) : `${reviewedJson({ permissions }, 2)}\n`,
    stderr: '',
  };
}
