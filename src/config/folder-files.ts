// Listing a project folder whose files a client reads: every file below it, links to folders
// followed (each real folder once), bounded in files and depth. Past a bound it is an AuditError:
// a file left unread could hold what decides. Light and synchronous: the action's early start
// lists the folders before the server under audit starts (action/early.ts).
import { readdirSync, realpathSync, statSync } from 'node:fs';
import { AuditError } from '../errors.js';

export interface FolderLimits {
  maxFiles: number;
  maxDepth: number;
  /** The error for a bound passed: what passed it. */
  refuse: (why: string) => AuditError;
}

/** The entries of a folder, by name; none when it does not exist or is no folder. */
function entriesOf(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw new AuditError(`Could not list ${dir}: ${(error as Error).message}.`);
  }
}

/** Whether `path` is a folder, a link to one included; false when it cannot be read. */
function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Adds to `out` every file below `dir` that `keep` takes (by name), sorted by path. */
export function filesBelow(
  dir: string,
  keep: (name: string) => boolean,
  out: string[],
  limits: FolderLimits,
): void {
  const visited = new Set<string>();
  const walk = (folder: string, depth: number): void => {
    if (depth > limits.maxDepth)
      throw limits.refuse(`${folder} is more than ${limits.maxDepth} folders deep`);
    let real: string;
    try {
      real = realpathSync(folder);
    } catch {
      return;
    }
    if (visited.has(real)) return;
    visited.add(real);
    for (const name of entriesOf(folder)) {
      const path = `${folder}/${name}`;
      if (isFolder(path)) walk(path, depth + 1);
      else if (keep(name)) out.push(path);
      if (out.length > limits.maxFiles) throw limits.refuse(`more than ${limits.maxFiles} files`);
    }
  };
  walk(dir, 0);
}

/** The key under which the action's early start keeps the clients' folders' files (trusted.ts). */
export const CLIENT_DIR_LISTING = 'client-folders';
/** The most files of the clients' project folders read; more fails the check. */
const MAX_DIR_FILES = 100;

/** Every file of these client project folders (clients' projectDirs), bounded. */
export function listClientFolders(dirs: readonly string[]): string[] {
  const out: string[] = [];
  const refuse = (why: string) =>
    new AuditError(
      `The clients' project folders (${dirs.join(', ')}): ${why}; the check reads at most ${MAX_DIR_FILES} files, 8 folders deep.`,
      'Each file there can decide what runs unasked, so none is left unread: remove some.',
    );
  for (const dir of dirs)
    filesBelow(dir, () => true, out, { maxFiles: MAX_DIR_FILES, maxDepth: 8, refuse });
  return out;
}
