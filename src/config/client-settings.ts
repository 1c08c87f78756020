// Which Claude Code settings files a check judges, and the mapping it judges them by: from the
// command line or the action's input, else the config file, else the project's own files
// (.claude/settings.json, and .claude/settings.local.json when present, as Claude Code reads
// both). Shared by the CLI and the action.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseMapping } from '../clients/claude-code/claude-settings.js';
import type { ClientRulesInput } from '../clients/claude-code/client-rules.js';
import {
  readForCheck,
  settingsSource,
  type CheckedSettings,
} from '../clients/claude-code/settings-check.js';
import { loadJsonText } from '../core/jsontext.js';
import { AuditError } from '../errors.js';
import { claudeCode } from '../clients/claude-code/client.js';
import type { ClientsInput } from '../clients/judge.js';
import { grantFiles, grantsOf } from './claude-grants.js';
import { committedClients, type ClientFilesOptions } from './client-files.js';
import { activeGit } from '../git.js';
import { NPX_COMMAND } from '../version.js';
import { DEFAULT_SETTINGS, LOCAL_SETTINGS } from './defaults.js';
import { shellQuote } from './settings.js';
import type { ConfigFile } from './file.js';

/** The settings files `check` reads from the config file's `settings:`. */
export function configSettings(file: ConfigFile | undefined): string[] | undefined {
  const given = file?.settings;
  return given === undefined ? undefined : Array.isArray(given) ? given : [given];
}

/** A file's text; undefined when it does not exist. */
export async function readSettingsText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new AuditError(`Could not read the settings file ${path}: ${(error as Error).message}.`);
  }
}

/** Whether git tracks the file (its allow rules then need a trusted workspace); false outside a repository. */
function tracked(path: string): Promise<boolean> {
  return activeGit().tracked(path);
}

/**
 * The settings files check judges: the given ones (--settings, the action input), else the config
 * file's, else the project's own when they exist; undefined when there are none. A file named on
 * purpose must exist. Each is read as Claude Code reads it (settings-check.ts): a file it drops
 * whole comes back marked ignored, not as an error.
 */
export async function clientRulesInput(
  given: string[] | undefined,
  file: ConfigFile | undefined,
  configPath: string,
  // The action reads them as its entry read them, before the server under audit could run.
  read: (path: string) => Promise<string | undefined> = readSettingsText,
): Promise<ClientRulesInput | undefined> {
  const named = given?.length ? given : configSettings(file);
  const paths = named ?? [DEFAULT_SETTINGS, LOCAL_SETTINGS];
  const project = resolve(DEFAULT_SETTINGS);
  const local = resolve(LOCAL_SETTINGS);
  const files: CheckedSettings[] = [];
  for (const path of paths) {
    const text = await read(path);
    if (text === undefined) {
      if (named)
        throw new AuditError(
          `The settings file ${path} does not exist.`,
          `Check the path, or create it with \`${NPX_COMMAND} rules --write ${shellQuote(path)}\`.`,
        );
      continue;
    }
    const source = settingsSource(resolve(path), project, local);
    await loadJsonText();
    const checked = readForCheck(text, path, source);
    if (source === 'local' && (await tracked(path))) checked.needsTrust = true;
    files.push(checked);
  }
  // Commands and skills are the project's wherever the settings come from: Claude Code reads them.
  for (const path of grantFiles()) {
    const text = await read(path);
    const granted = text === undefined ? undefined : await grantsOf(text, path);
    if (granted) files.push(granted);
  }
  if (!files.length) return undefined;
  return {
    files,
    mapping: parseMapping(file?.clientRules, configPath),
    writeTarget: paths.find((p) => p.endsWith(DEFAULT_SETTINGS)) ?? (paths[0] as string),
  };
}

/**
 * The other clients' committed configs check judges (client-files.ts), with the mapping they are
 * judged by, and those the config file lists that nothing committed configures; undefined when
 * there are none.
 */
export async function clientsInput(
  file: ConfigFile | undefined,
  configPath: string,
  options: Omit<ClientFilesOptions, 'skip'>,
): Promise<ClientsInput | undefined> {
  const found = await committedClients({
    ...options,
    skip: [claudeCode.id],
    ...(file?.clients ? { listed: file.clients } : {}),
  });
  if (!found.length) return undefined;
  const judged = found.filter((j) => !j.listedOnly);
  const listed = found.filter((j) => j.listedOnly);
  return {
    judged,
    ...(listed.length ? { listed } : {}),
    mapping: parseMapping(file?.clientRules, configPath),
  };
}
