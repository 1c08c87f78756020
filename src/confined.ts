import { randomBytes } from 'node:crypto';
import { chmod, lstat, mkdir, open, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, parse, relative, resolve, sep } from 'node:path';
import { AuditError, getErrorMessage } from './errors.js';
import { terminalSafe } from './escape.js';
import { topLevelOf } from './git.js';

/*
 * Every file the tool writes (the class list, Claude Code settings from `rules --write`, the
 * JSON report, SARIF, the rules output) goes through writeConfined, with the one folder it may
 * write under. The repository's files are the PR's: a symlink or `..` in them must not carry a
 * write to the user's home or the runner's own files, so the real path is found before anything
 * is written, and a path whose real place leaves the root is refused.
 */

/**
 * The one folder a write may land under. `links`: `inside` follows symbolic links whose real
 * place stays under the root (a repository may link `.claude` to a folder of its own); `none`
 * refuses every link under the root (a folder the tool made itself holds none of its own).
 */
export interface WriteRoot {
  /** A real path (no symlink in it). */
  path: string;
  /** The root for people: "the repository", "the runner's temporary folder". */
  name: string;
  links: 'inside' | 'none';
}

const shown = (path: string): string => terminalSafe(path, 200);

/** Whether `path` is `root` or under it; both absolute and real. */
function isUnder(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** A real path, or undefined where the path (or a link in it) leads nowhere. */
async function realOrNothing(path: string): Promise<string | undefined> {
  try {
    return await realpath(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/** Whether `path` is a symbolic link itself; undefined when nothing is there. */
async function isLink(path: string): Promise<boolean | undefined> {
  try {
    return (await lstat(path)).isSymbolicLink();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/** `path` and each folder above it, from the top down. */
function prefixes(path: string): string[] {
  const out: string[] = [];
  for (let p = path; ; p = dirname(p)) {
    out.unshift(p);
    if (p === parse(p).root) return out;
  }
}

/**
 * The symbolic links on the way to `path` that sit under the root (the folder holding each is
 * under it), in order; each with its real target, undefined when it leads nowhere.
 */
async function linksUnderRoot(
  path: string,
  root: string,
): Promise<{ link: string; target: string | undefined }[]> {
  const out: { link: string; target: string | undefined }[] = [];
  for (const p of prefixes(path)) {
    const link = await isLink(p);
    if (link === undefined) break;
    if (!link || p === parse(p).root) continue;
    const parent = await realOrNothing(dirname(p));
    if (parent !== undefined && isUnder(parent, root))
      out.push({ link: p, target: await realOrNothing(p) });
  }
  return out;
}

/** The refusal: nothing is written (or read). */
function refuse(what: string, path: string, why: string, fix: string, verb = 'write'): AuditError {
  return new AuditError(`Refusing to ${verb} ${what} ${shown(path)}: ${why}.`, fix);
}

/** The real place of `abs`: the deepest part that exists resolved, the rest as given. */
async function realPlace(abs: string): Promise<string | undefined> {
  const tail: string[] = [];
  for (let p = abs; ; p = dirname(p)) {
    if ((await isLink(p)) !== undefined) {
      const real = await realOrNothing(p);
      return real === undefined ? undefined : join(real, ...tail.reverse());
    }
    if (p === parse(p).root) return undefined;
    tail.push(parse(p).base);
  }
}

/**
 * Where a write of `path` lands, checked: its real path (links resolved, the final one too)
 * under the root, no link under the root that leads out of it or nowhere (and none at all for a
 * `none` root), and no existing file there that is not a regular file. An AuditError naming the
 * path and the link otherwise.
 */
export async function confinedPath(path: string, root: WriteRoot, what: string): Promise<string> {
  try {
    return await checkedPlace(path, root, what);
  } catch (error) {
    if (error instanceof AuditError) throw error;
    throw new AuditError(
      `Could not check where ${what} ${shown(path)} would be written: ${getErrorMessage(error)}.`,
    );
  }
}

async function checkedPlace(
  path: string,
  root: WriteRoot,
  what: string,
  verb = 'write',
): Promise<string> {
  const abs = resolve(path);
  const refused = (p: string, why: string, fix: string) => refuse(what, p, why, fix, verb);
  const outside = `outside ${root.name} (${shown(root.path)})`;
  const fix =
    root.links === 'none'
      ? `The auditor makes its folders in ${root.name} (${shown(root.path)}) itself, so a link there was put there by something else that ran in the job (a server, a step): remove it, and run the job again.`
      : `The auditor ${verb === 'read' ? 'reads' : 'writes'} only inside ${root.name} (${shown(root.path)}): give a path inside it, and replace a symbolic link that leads out with a file or folder of its own.`;
  for (const { link, target } of await linksUnderRoot(abs, root.path)) {
    if (target === undefined)
      throw refused(path, `${shown(link)} is a symbolic link that leads nowhere`, fix);
    if (root.links === 'none')
      throw refused(path, `${shown(link)} is a symbolic link (to ${shown(target)})`, fix);
    if (!isUnder(target, root.path))
      throw refused(path, `${shown(link)} is a symbolic link to ${shown(target)}, ${outside}`, fix);
  }
  const real = await realPlace(abs);
  if (real === undefined) throw refused(path, 'a symbolic link on its path leads nowhere', fix);
  if (!isUnder(real, root.path) || real === root.path)
    throw refused(path, `it resolves to ${shown(real)}, ${outside}`, fix);
  const existing = await stat(real).catch(() => undefined);
  if (existing && !existing.isFile())
    throw refused(path, `${shown(real)} is not a regular file`, fix);
  return real;
}

/**
 * Writes `text` to `path` inside the root (see confinedPath: a path that leaves it is an
 * AuditError and nothing is written). Missing folders are made; the file is written through a
 * temporary file and a rename, so a reader never sees half a file, and keeps its mode. A link
 * inside the root is written through to its target, and stays a link.
 */
export async function writeConfined(
  path: string,
  text: string,
  root: WriteRoot,
  what: string,
): Promise<void> {
  const target = await confinedPath(path, root, what);
  const folder = dirname(target);
  const failed = (error: unknown) =>
    new AuditError(`Could not write ${what} ${shown(path)}: ${getErrorMessage(error)}.`);
  let mode: number | undefined;
  try {
    mode = (await stat(target).catch(() => undefined))?.mode;
    await mkdir(folder, { recursive: true });
  } catch (error) {
    throw failed(error);
  }
  // The folders made, or one swapped for a link since the check, must still be where it said.
  if ((await realOrNothing(folder)) !== folder)
    throw refuse(what, path, `${shown(folder)} changed while it was written`, 'Run it again.');
  const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    // `wx`: never through a file or link that is already there.
    await writeFile(temp, text, { encoding: 'utf8', flag: 'wx' });
    // Set after writing: a mode given to writeFile is narrowed by the umask.
    if (mode !== undefined) await chmod(temp, mode & 0o7777);
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw failed(error);
  }
}

/**
 * Reads a file of the repository the check judges (a client's committed config): undefined when
 * nothing is there; its real place must be inside the root (a link under the root that leads out
 * of it, or nowhere, is refused before anything is read), it must be a regular file, and no
 * larger than `maxBytes`. AuditError otherwise, naming the path. `read` gives the text instead
 * (the action's files as read before the server under audit ran, see prestart.ts).
 */
export async function readConfined(
  path: string,
  root: WriteRoot,
  what: string,
  options: { maxBytes: number; read?: (path: string) => Promise<string> },
): Promise<string | undefined> {
  if ((await isLink(resolve(path))) === undefined) return undefined;
  const fail = (error: unknown, doing: string) =>
    error instanceof AuditError
      ? error
      : new AuditError(`Could not ${doing} ${what} ${shown(path)}: ${getErrorMessage(error)}.`);
  let real: string;
  try {
    real = await checkedPlace(path, root, what, 'read');
  } catch (error) {
    throw fail(error, 'check where to read');
  }
  const tooLarge = (size: number) =>
    new AuditError(
      `${what} ${shown(path)} is ${size} bytes; the check reads files of up to ${options.maxBytes} bytes.`,
      'Check that the path names the right file, or shorten it.',
    );
  try {
    if (options.read) {
      const text = await options.read(path);
      if (Buffer.byteLength(text, 'utf8') > options.maxBytes)
        throw tooLarge(Buffer.byteLength(text, 'utf8'));
      return text;
    }
    const handle = await open(real, 'r');
    try {
      // Sized through the handle checked: a file that grows after is cut at its size, not read whole.
      const size = (await handle.stat()).size;
      if (size > options.maxBytes) throw tooLarge(size);
      const buffer = Buffer.alloc(size);
      const { bytesRead } = await handle.read(buffer, 0, size, 0);
      return buffer.subarray(0, bytesRead).toString('utf8');
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw fail(error, 'read');
  }
}

/**
 * The repository the CLI writes in: git's top level for the current folder, else the current
 * folder. In the action (`workspace` given), the top level only when it is inside the workspace
 * (a working-directory the PR linked elsewhere must not move it), else the workspace.
 */
export async function repositoryRoot(workspace?: string): Promise<WriteRoot> {
  const top = await topLevelOf();
  const real = async (p: string) => (await realOrNothing(p)) ?? resolve(p);
  const topReal = top ? await real(top) : undefined;
  const name = 'the repository';
  if (workspace === undefined) return { path: topReal ?? process.cwd(), name, links: 'inside' };
  const ws = await real(workspace);
  return { path: topReal && isUnder(topReal, ws) ? topReal : ws, name, links: 'inside' };
}

/**
 * The folder of the runner's temporary folder the action writes its own files in (the report,
 * the rules output): no link may be under it, since the PR's server could have planted one.
 */
export async function runnerTempRoot(env: NodeJS.ProcessEnv): Promise<WriteRoot> {
  const base = env.RUNNER_TEMP || tmpdir();
  return {
    path: (await realOrNothing(base)) ?? resolve(base),
    name: "the runner's temporary folder",
    links: 'none',
  };
}
