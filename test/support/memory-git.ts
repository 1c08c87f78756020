// A clone in memory for the unit layer: the Git of src/git.ts answered from commits held as maps
// of path -> content, so that the CLI's and the action's engine read a base commit without a git
// process. The working tree stays a real folder (the engine reads today's files from disk); only
// what git would answer is here: the repository's root, commits and refs, trees, blobs, the
// index, and a fetch from "origin". Symlinks, submodules and missing objects are entries like
// files, so the trusted base reader (src/config/base-reader.ts) meets what a real clone gives it.
import { createHash } from 'node:crypto';
import { lstat, mkdir, readdir, readFile, readlink, realpath, rename } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Git, TreeEntry } from '../../src/git.js';

/** What a commit holds at a path: a file's text, a symlink, a submodule, or an object it lacks. */
export type Entry =
  | string
  | { symlink: string }
  | { submodule: string }
  /** A blob the tree names but the clone does not hold (a partial clone, a broken one). */
  | { missing: string };

/** A commit's files: path (forward slashes, from the repository's root) -> entry. */
export type Files = Record<string, Entry>;

type GitObject =
  | { kind: 'blob'; text: string }
  | { kind: 'tree'; entries: Map<string, TreeEntry> }
  | { kind: 'commit'; tree: string; parent?: string };

/** git's own words for what it cannot find, so messages read as a real clone's would. */
const fatal = (message: string) => new Error(`fatal: ${message}`);

function hash(kind: string, body: string): string {
  return createHash('sha1').update(`${kind}\0${body}`).digest('hex');
}

/** The Git of a folder that is in no repository: every question answered as git does there. */
export const noRepository: Git = {
  topLevel: () => Promise.resolve(undefined),
  commit: () => Promise.resolve(undefined),
  tree: () =>
    Promise.reject(fatal('not a git repository (or any of the parent directories): .git')),
  entries: () =>
    Promise.reject(fatal('not a git repository (or any of the parent directories): .git')),
  blob: () =>
    Promise.reject(fatal('not a git repository (or any of the parent directories): .git')),
  fetch: () =>
    Promise.reject(fatal('not a git repository (or any of the parent directories): .git')),
  tracked: () => Promise.resolve(false),
  show: () =>
    Promise.reject(fatal('not a git repository (or any of the parent directories): .git')),
};

/**
 * A repository whose working tree is the folder `root`. Commits are made from maps
 * ({@link commitFiles}) or from the folder as it is ({@link commitWorkingTree}, which is
 * `git add -A && git commit`); HEAD moves to each new one. `origin` holds commits this clone does
 * not, which only {@link fetch} brings.
 */
export class MemoryGit implements Git {
  private readonly objects = new Map<string, GitObject>();
  private readonly origin = new Map<string, GitObject>();
  private readonly refs = new Map<string, string>();
  private readonly index = new Set<string>();
  private commits = 0;
  /** What each git question was asked with, in order: for a test that a read went to git. */
  readonly asked: string[] = [];

  constructor(readonly root: string) {}

  // ---- what a test does to the repository --------------------------------------------------

  /** A commit of `files` (the whole tree) on top of HEAD; HEAD and `ref` name it. */
  commitFiles(files: Files, ref?: string): string {
    const sha = this.store(this.objects, files, this.refs.get('HEAD'));
    this.refs.set('HEAD', sha);
    if (ref) this.refs.set(ref, sha);
    this.index.clear();
    for (const path of Object.keys(files)) this.index.add(path);
    return sha;
  }

  /** `git add -A && git commit`: the working tree as it is now (.git left out) becomes HEAD. */
  async commitWorkingTree(ref?: string): Promise<string> {
    return this.commitFiles(await this.workingTree(), ref);
  }

  /** A commit only origin holds (not in this clone until fetched); its sha. */
  offer(files: Files): string {
    return this.store(this.origin, files, undefined);
  }

  /** `git mv from to`: the file moves in the working tree and in the index. */
  async mv(from: string, to: string): Promise<void> {
    await mkdir(dirname(join(this.root, to)), { recursive: true });
    await rename(join(this.root, from), join(this.root, to));
    this.index.delete(from);
    this.index.add(to);
  }

  /** `git add path`: the index tracks it from now on. */
  add(path: string): void {
    this.index.add(path);
  }

  /** A ref (a branch, a tag) naming a commit. */
  setRef(name: string, sha: string): void {
    this.refs.set(name, sha);
  }

  /** The files of the working tree, as `git add -A` would take them. */
  async workingTree(): Promise<Files> {
    const files: Files = {};
    const walk = async (dir: string): Promise<void> => {
      for (const name of await readdir(join(this.root, dir))) {
        if (!dir && name === '.git') continue;
        const path = dir ? `${dir}/${name}` : name;
        const stat = await lstat(join(this.root, path));
        if (stat.isSymbolicLink()) files[path] = { symlink: await readlink(join(this.root, path)) };
        else if (stat.isDirectory()) await walk(path);
        else files[path] = await readFile(join(this.root, path), 'utf8');
      }
    };
    await walk('');
    return files;
  }

  // ---- the Git the engine asks ------------------------------------------------------------

  async topLevel(cwd?: string): Promise<string | undefined> {
    this.asked.push(`topLevel ${cwd ?? '.'}`);
    return (await this.inside(cwd)) ? realpath(this.root) : undefined;
  }

  async commit(ref: string, cwd?: string): Promise<string | undefined> {
    this.asked.push(`commit ${ref}`);
    if (!(await this.inside(cwd))) return undefined;
    return this.resolve(ref);
  }

  async tree(commit: string, cwd?: string): Promise<string> {
    this.asked.push(`tree ${commit}`);
    await this.must(cwd);
    const sha = this.resolve(commit);
    const object = sha === undefined ? undefined : this.objects.get(sha);
    if (object?.kind !== 'commit') throw fatal('Needed a single revision');
    return object.tree;
  }

  async entries(tree: string, cwd?: string): Promise<Map<string, TreeEntry>> {
    this.asked.push(`entries ${tree}`);
    await this.must(cwd);
    const object = this.objects.get(tree);
    if (object?.kind !== 'tree') throw fatal('not a tree object');
    return new Map(object.entries);
  }

  async blob(object: string, cwd?: string): Promise<string> {
    this.asked.push(`blob ${object}`);
    await this.must(cwd);
    const found = this.objects.get(object);
    if (found?.kind !== 'blob') throw fatal(`Not a valid object name ${object}`);
    return found.text;
  }

  async fetch(ref: string, cwd?: string): Promise<void> {
    this.asked.push(`fetch ${ref}`);
    await this.must(cwd);
    const commit = this.origin.get(ref);
    if (commit?.kind !== 'commit')
      throw fatal(`remote error: upload-pack: not our ref ${ref}\nfatal: the remote end hung up`);
    this.copy(ref);
  }

  async tracked(path: string, cwd?: string): Promise<boolean> {
    this.asked.push(`tracked ${path}`);
    if (!(await this.inside(cwd))) return false;
    const at = relative(await realpath(this.root), resolve(await this.cwdOf(cwd), path));
    return this.index.has(at.split(sep).join('/'));
  }

  async show(object: string, cwd?: string): Promise<string | null> {
    this.asked.push(`show ${object}`);
    await this.must(cwd);
    const colon = object.indexOf(':');
    const rev = object.slice(0, colon);
    const sha = colon > 0 ? this.resolve(rev) : undefined;
    if (sha === undefined) throw fatal(`invalid object name '${rev}'`);
    let path = object.slice(colon + 1);
    // As git reads REV:./PATH: relative to the folder it runs in.
    if (path.startsWith('./'))
      path = relative(await realpath(this.root), resolve(await this.cwdOf(cwd), path))
        .split(sep)
        .join('/');
    let tree = (this.objects.get(sha) as { tree: string }).tree;
    const names = path.split('/').filter((n) => n !== '' && n !== '.');
    for (const [i, name] of names.entries()) {
      const entries = (this.objects.get(tree) as { entries: Map<string, TreeEntry> }).entries;
      const entry = entries.get(name);
      if (!entry) return null;
      if (i === names.length - 1) {
        if (entry.type === 'tree')
          return `tree ${object}\n\n${[...(this.objects.get(entry.object) as { entries: Map<string, TreeEntry> }).entries.keys()].join('\n')}\n`;
        return this.blob(entry.object, cwd);
      }
      if (entry.type !== 'tree') return null;
      tree = entry.object;
    }
    throw fatal(`path '${path}' does not exist in '${rev}'`);
  }

  // ---- inside -----------------------------------------------------------------------------

  private async cwdOf(cwd: string | undefined): Promise<string> {
    return realpath(cwd ?? process.cwd()).catch(() => resolve(cwd ?? process.cwd()));
  }

  /** Whether git run in `cwd` (default: the current folder) would find this repository. */
  private async inside(cwd: string | undefined): Promise<boolean> {
    const from = relative(await realpath(this.root), await this.cwdOf(cwd));
    return from === '' || (!from.startsWith('..') && !isAbsolute(from));
  }

  private async must(cwd: string | undefined): Promise<void> {
    if (!(await this.inside(cwd)))
      throw fatal('not a git repository (or any of the parent directories): .git');
  }

  /** A ref as `rev-parse REF^{commit}` resolves it: a name, a full or short sha, then `~N`. */
  private resolve(ref: string): string | undefined {
    const match = /^(.*?)((?:~\d*|\^)*)$/.exec(ref);
    const [name = '', steps = ''] = match ? [match[1], match[2]] : [ref, ''];
    let sha = this.refs.get(name);
    if (sha === undefined && /^[0-9a-f]{4,40}$/.test(name)) {
      const found = [...this.objects.keys()].filter(
        (id) => id.startsWith(name) && this.objects.get(id)?.kind === 'commit',
      );
      if (found.length === 1) sha = found[0];
    }
    for (const step of steps.match(/~\d*|\^/g) ?? []) {
      const count = step === '^' || step === '~' ? 1 : Number(step.slice(1));
      for (let i = 0; i < count && sha !== undefined; i++)
        sha = (this.objects.get(sha) as { parent?: string } | undefined)?.parent;
    }
    return sha !== undefined && this.objects.get(sha)?.kind === 'commit' ? sha : undefined;
  }

  /** The objects of a commit of `files` into `into`; its sha. */
  private store(into: Map<string, GitObject>, files: Files, parent: string | undefined): string {
    type Folder = Map<string, Folder | Entry>;
    const top: Folder = new Map();
    for (const [path, entry] of Object.entries(files)) {
      const names = path.split('/');
      let folder = top;
      for (const name of names.slice(0, -1)) {
        let next = folder.get(name);
        if (!(next instanceof Map)) folder.set(name, (next = new Map()));
        folder = next;
      }
      folder.set(names.at(-1) as string, entry);
    }
    const write = (folder: Folder): string => {
      const entries = new Map<string, TreeEntry>();
      for (const [name, entry] of [...folder].sort(([a], [b]) => (a < b ? -1 : 1))) {
        if (entry instanceof Map)
          entries.set(name, { mode: '040000', type: 'tree', object: write(entry) });
        else if (typeof entry === 'string') {
          const object = hash('blob', entry);
          into.set(object, { kind: 'blob', text: entry });
          entries.set(name, { mode: '100644', type: 'blob', object });
        } else if ('symlink' in entry) {
          const object = hash('blob', entry.symlink);
          into.set(object, { kind: 'blob', text: entry.symlink });
          entries.set(name, { mode: '120000', type: 'blob', object });
        } else if ('submodule' in entry)
          entries.set(name, {
            mode: '160000',
            type: 'commit',
            object: hash('commit', entry.submodule),
          });
        else
          entries.set(name, {
            mode: '100644',
            type: 'blob',
            object: hash('blob', `missing ${entry.missing}`),
          });
      }
      const body = [...entries].map(([n, e]) => `${e.mode} ${e.object} ${n}`).join('\n');
      const object = hash('tree', body);
      into.set(object, { kind: 'tree', entries });
      return object;
    };
    const tree = write(top);
    const sha = hash('commit', `${tree} ${parent ?? ''} ${++this.commits}`);
    into.set(sha, { kind: 'commit', tree, ...(parent ? { parent } : {}) });
    return sha;
  }

  /** A commit and every object it reaches, from origin into this clone. */
  private copy(object: string): void {
    const found = this.origin.get(object);
    if (!found) return;
    this.objects.set(object, found);
    if (found.kind === 'commit') this.copy(found.tree);
    if (found.kind === 'tree') for (const entry of found.entries.values()) this.copy(entry.object);
  }
}
