// Which Claude Code settings files a check judges, and the mapping it judges them by: from the
// command line or the action's input, else the config file, else .claude/settings.json. Shared
// by the CLI and the action.
import { parseMapping, type SettingsFile } from '../clients/claude-settings.js';
import type { ClientRulesInput } from '../clients/client-rules.js';
import { AuditError } from '../errors.js';
import { readSettingsFile } from '../files.js';
import { NPX_COMMAND } from '../version.js';
import { DEFAULT_SETTINGS } from './defaults.js';
import { shellQuote } from './settings.js';
import type { ConfigFile } from './file.js';

/** The settings files `check` reads from the config file's `settings:`. */
export function configSettings(file: ConfigFile | undefined): string[] | undefined {
  const given = file?.settings;
  return given === undefined ? undefined : Array.isArray(given) ? given : [given];
}

/**
 * The settings files check judges: the given ones (--settings, the action input), else the config
 * file's, else .claude/settings.json when it exists; undefined when there are none. A file named
 * on purpose must exist.
 */
export async function clientRulesInput(
  given: string[] | undefined,
  file: ConfigFile | undefined,
  configPath: string,
  // The action reads them as its entry read them, before the server under audit could run.
  read: (path: string) => Promise<SettingsFile | undefined> = readSettingsFile,
): Promise<ClientRulesInput | undefined> {
  const named = given?.length ? given : configSettings(file);
  const paths = named ?? [DEFAULT_SETTINGS];
  const files: SettingsFile[] = [];
  for (const path of paths) {
    const got = await read(path);
    if (got) files.push(got);
    else if (named)
      throw new AuditError(
        `The settings file ${path} does not exist.`,
        `Check the path, or create it with \`${NPX_COMMAND} rules --write ${shellQuote(path)}\`.`,
      );
  }
  if (!files.length) return undefined;
  return {
    files,
    mapping: parseMapping(file?.clientRules, configPath),
    writeTarget: paths.find((p) => p.endsWith(DEFAULT_SETTINGS)) ?? (paths[0] as string),
  };
}
