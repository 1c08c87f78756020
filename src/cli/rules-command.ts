import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import type { ClassList } from '../core/classlist.js';
import { readClassList, readSettingsFile, writeFileAtomic } from '../files.js';
import {
  mergePermissions,
  parseMapping,
  permissionsFor,
  serversOf,
  type Permissions,
} from '../clients/claude-settings.js';
import { readConfigFile } from '../config/file.js';
import { DEFAULT_CLASS_LIST, DEFAULT_CONFIG } from '../config/defaults.js';
import { AuditError } from '../errors.js';
import { terminalSafe } from '../escape.js';
import { HELP, type CliResult } from './help.js';
import { NPX_COMMAND } from '../version.js';
import { DECISIONS } from '../clients/permissions.js';

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

/** `rules`: the Claude Code permissions the reviewed class list maps to, printed or merged into a file. */
export async function runRules(args: string[]): Promise<CliResult> {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        help: { type: 'boolean', short: 'h' },
        'class-list': { type: 'string' },
        config: { type: 'string' },
        format: { type: 'string' },
        write: { type: 'string' },
      },
    }));
  } catch (error) {
    throw usageError((error as Error).message);
  }
  if (values.help) return { exitCode: 0, stdout: `${HELP.rules}\n`, stderr: '' };
  const format = values.format ?? 'json';
  if (format !== 'json' && format !== 'text')
    throw usageError(`--format must be json or text, not "${format}".`);
  const configPath = values.config ?? DEFAULT_CONFIG;
  const file = await readConfigFile(configPath, values.config !== undefined);
  const mapping = parseMapping(file?.clientRules, configPath);
  const classListPath = values['class-list'] ?? file?.classList ?? DEFAULT_CLASS_LIST;
  const list = await requiredClassList(classListPath);
  const permissions = permissionsFor(list, mapping);
  const servers = serversOf(list);
  if (values.write !== undefined) {
    const target = values.write;
    const existing = await readSettingsFile(target);
    const text = mergePermissions(existing, permissions, servers);
    const changed = text !== existing?.text;
    // A first write makes .claude/ too.
    if (!existing) await mkdir(dirname(target), { recursive: true });
    if (changed) await writeFileAtomic(target, text);
    const count = DECISIONS.reduce((n, d) => n + permissions[d].length, 0);
    const names = [...servers].sort().map((s) => terminalSafe(s, 100));
    return {
      exitCode: 0,
      stdout:
        format === 'text'
          ? `${renderTable(list, permissions)}\n${changed ? 'Wrote' : 'Unchanged:'} ${terminalSafe(target, 200)} (${count} rule${count === 1 ? '' : 's'} for ${names.length === 1 ? 'server' : 'servers'} ${names.join(', ') || '(none)'}; every other key and rule kept).\n`
          : `${JSON.stringify({ written: changed, file: target, permissions }, null, 2)}\n`,
      stderr: '',
    };
  }
  return {
    exitCode: 0,
    stdout:
      format === 'text'
        ? renderTable(list, permissions)
        : `${JSON.stringify({ permissions }, null, 2)}\n`,
    stderr: '',
  };
}
