// The committed configs of the clients in the registry (clients/registry.ts) that the check
// judges: each client's project files that exist, read safely (inside the repository, links
// resolved inside it, bounded), and the state the client's model makes of them. Claude Code's
// settings are read by client-settings.ts (--settings, the claude-settings input).
import { readdir } from 'node:fs/promises';
import { AuditError, getErrorMessage } from '../errors.js';
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

/** The most files of one project folder read; more fails the check (none is left unread). */
const MAX_DIR_FILES = 100;
/** How deep a project folder is followed; deeper fails the check. */
const MAX_DIR_DEPTH = 8;

/** The entries of a folder (none when it does not exist), as [name, whether a folder]. */
async function entriesOf(client: Client, dir: string): Promise<[string, boolean][]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch((error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw new AuditError(
      `Could not list ${client.label}'s folder ${dir}: ${getErrorMessage(error)}.`,
    );
  });
  return entries
    .filter((e) => e.isFile() || e.isSymbolicLink() || e.isDirectory())
    .map((e): [string, boolean] => [e.name, e.isDirectory()])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The files of a client's project folders and their subfolders (sorted), as repository-relative
 * paths. More files, or deeper folders, than the check reads is an AuditError: a file left
 * unread could hold what decides.
 */
async function folderFiles(client: Client): Promise<string[]> {
  const out: string[] = [];
  const refuse = (why: string) =>
    new AuditError(
      `${client.label}'s project folders: ${why}; the check reads at most ${MAX_DIR_FILES} files, ${MAX_DIR_DEPTH} folders deep.`,
      'Each file there can decide what runs unasked, so none is left unread: remove some.',
    );
  const walk = async (dir: string, depth: number): Promise<void> => {
    if (depth > MAX_DIR_DEPTH) throw refuse(`${dir} is too deep`);
    for (const [name, folder] of await entriesOf(client, dir)) {
      if (folder) await walk(`${dir}/${name}`, depth + 1);
      else out.push(`${dir}/${name}`);
      if (out.length > MAX_DIR_FILES) throw refuse(`more than ${MAX_DIR_FILES} files`);
    }
  };
  for (const dir of client.projectDirs ?? []) await walk(dir, 0);
  return out;
}

/** One client's project files that exist, each under the path reports show. */
async function projectFiles(client: Client, options: ClientFilesOptions): Promise<ClientFile[]> {
  const files: ClientFile[] = [];
  // Each file of a folder is read as a project file is: inside the repository, bounded.
  for (const path of [...client.projectFiles, ...(await folderFiles(client))]) {
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
