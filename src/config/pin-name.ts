import { NPX_COMMAND } from '../version.js';
import { shellQuote } from './settings.js';

/**
 * The update command with `--server-name NAME` after `update`, for a server named from its own
 * serverInfo (nothing pinned it). Without it, running the printed command records the tools
 * under whatever the server reports next time, and a later `.mcp.json` key renames them all: the
 * command pins the name the class list now records, the one to keep. A command that already
 * names its server, or is not an update command of ours, is returned as it is.
 */
export function pinServerName(command: string, name: string): string {
  const prefix = `${NPX_COMMAND} update`;
  // A name made from serverInfo is normalised; anything else (a report file's) is not pinned.
  if (!command.startsWith(prefix) || !/^[A-Za-z0-9_-]+$/.test(name)) return command;
  const rest = command.slice(prefix.length);
  if (rest !== '' && !rest.startsWith(' ')) return command;
  const options = rest.split(' -- ')[0] ?? '';
  if (/(^|\s)--server-name(\s|=|$)/.test(options)) return command;
  return `${prefix} --server-name ${shellQuote(name)}${rest}`;
}

/** The update command for one audited server: pinned when its name came from serverInfo. */
export function pinnedCommand(
  command: string,
  server: { server: string; unpinnedName?: string | undefined },
): string {
  return server.unpinnedName === undefined ? command : pinServerName(command, server.server);
}
