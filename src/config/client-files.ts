// The committed configs of the clients in the registry (clients/registry.ts) that the check
// judges: each client's project files that exist, read safely (inside the repository, links
// resolved inside it, bounded), and the state the client's model makes of them. Claude Code's
// settings are read by client-settings.ts (--settings, the claude-settings input).
import { AuditError } from '../errors.js';
import { listedEarly } from '../trusted.js';
import { CLIENT_DIR_LISTING, listClientFolders } from './folder-files.js';
import { readConfined, type WriteRoot } from '../confined.js';
import type { Client, ClientFile } from '../clients/client.js';
import type { JudgedClient } from '../clients/judge.js';
import { CLIENTS } from '../clients/registry.js';
import { MAX_SETTINGS_BYTES } from '../clients/claude-code/settings-check.js';

/** How the files are found and named: the root reads stay in, and the path reports show. */
export interface ClientFilesOptions {
  root: WriteRoot;
  /** The path reports show for a project file (the action names files from the repository root). */
  show?: (path: string) => Promise<string>;
  /** Gives a file's text (the action's, as read before the server ran); default: read it now. */
  read?: (path: string) => Promise<string>;
  /** The clients whose files are read elsewhere (Claude Code's, by client-settings.ts). */
  skip?: readonly string[];
  clients?: readonly Client[];
  /**
   * Client ids the config file lists (`clients:`): each is returned even when its files are
   * absent or configure nothing (marked listedOnly), for the comment to say what it decides.
   */
  listed?: readonly string[];
}

/**
 * The files of a client's project folders and their subfolders, as repository-relative paths:
 * as the action's early start listed every client's folders before the server under audit could
 * change them, else listed now (folder-files.ts: bounded, over a bound an AuditError).
 */
function folderFiles(client: Client): string[] {
  const dirs = client.projectDirs ?? [];
  if (!dirs.length) return [];
  const early = listedEarly(CLIENT_DIR_LISTING);
  if (!early) return listClientFolders(dirs);
  return early.filter((path) => dirs.some((dir) => path.startsWith(`${dir}/`)));
}

/** One client's project files that exist, each under the path reports show. */
async function projectFiles(client: Client, options: ClientFilesOptions): Promise<ClientFile[]> {
  const files: ClientFile[] = [];
  // Each file of a folder is read as a project file is: inside the repository, bounded.
  for (const path of [...client.projectFiles, ...folderFiles(client)]) {
    const text = await readConfined(path, options.root, `${client.label}'s file`, {
      maxBytes: MAX_SETTINGS_BYTES,
      ...(options.read ? { read: options.read } : {}),
    });
    if (text !== undefined)
      files.push({ path: options.show ? await options.show(path) : path, text });
  }
  return files;
}

/**
 * Each registry client whose project files exist and configure it (or that `listed` names), with
 * the state its model reads from them. A file that does not parse is an AuditError naming the client and the file:
 * a config the check cannot read is never judged as "no rules".
 */
export async function committedClients(options: ClientFilesOptions): Promise<JudgedClient[]> {
  const judged: JudgedClient[] = [];
  for (const client of options.clients ?? CLIENTS) {
    if (options.skip?.includes(client.id)) continue;
    const files = await projectFiles(client, options);
    const listed = options.listed?.includes(client.id) === true;
    if (!files.length && !listed) continue;
    let state: unknown;
    await client.load?.();
    try {
      state = client.read(files);
    } catch (error) {
      // Said of the client, so that a reader knows whose file it is.
      if (!(error instanceof AuditError) || error.message.includes(client.label)) throw error;
      throw new AuditError(`${client.label}: ${error.message}`, error.hint, error.details);
    }
    if (client.configures(state)) judged.push({ client, state });
    else if (listed) judged.push({ client, state, listedOnly: true });
  }
  return judged;
}
