// The one way the base commit is read, by the CLI and the action alike: a path of today's
// working tree is turned into a repository path lexically (never through a symlink the PR may
// have planted), and that path is resolved in the base commit's own tree, symlinks there followed
// as git stored them. "The base has no such file" is a fact proved from the tree, never an
// inference from an error.
import { realpath } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { AuditError } from '../errors.js';
import { activeGit, gitMessage, topLevelOf, type Git, type TreeEntry } from '../git.js';

/** A commit with no parent: a push that creates a branch names it as its `before`. */
export const NULL_SHA = /^0{40}$/;

/** Links followed in one path before it is refused as a loop. */
const MAX_LINKS = 40;

/**
 * The current directory as the user named it: the shell's PWD when it is this very directory
 * (a `cd` through a symlink keeps the link's name there), else the real one.
 */
export async function logicalCwd(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const pwd = env.PWD;
  const here = process.cwd();
  if (!pwd || !isAbsolute(pwd) || pwd === here) return here;
  const real = await realpath(pwd).catch(() => undefined);
  return real === (await realpath(here).catch(() => here)) ? resolve(pwd) : here;
}

/** The repository's root as git reports it from `cwd`; undefined outside a repository. */
export function gitTopLevel(cwd: string): Promise<string | undefined> {
  return topLevelOf(cwd);
}

/**
 * `path` (relative to the logical directory `from`) as a path from the repository's root `root`,
 * with forward slashes. Only the folders above the root are resolved (the shortest ancestor of
 * the path whose real path is the root's real path): below it, the path stays as written, so a
 * symlink in the PR's working tree cannot move what is read at the base.
 */
export async function repoPathOf(path: string, from: string, root: string): Promise<string> {
  const full = resolve(from, path);
  const realRoot = await realpath(root).catch(() => resolve(root));
  const ancestors: string[] = [];
  for (let at = full; ; at = dirname(at)) {
    ancestors.unshift(at);
    if (dirname(at) === at) break;
  }
  for (const ancestor of ancestors) {
    if (ancestor === full) break;
    const real = await realpath(ancestor).catch(() => undefined);
    if (real === realRoot) return relative(ancestor, full).split(sep).join('/');
  }
  throw new AuditError(
    `${path} is outside the repository ${root}: it has no place at the base commit.`,
    'Keep the class list, the config file and the settings files inside the repository.',
  );
}

/**
 * A commit in this clone, read by repository path. Trees are listed once each and kept: a run
 * reads a few paths, most in the same folders.
 */
export class BaseTree {
  private readonly trees = new Map<string, Promise<Map<string, TreeEntry>>>();
  /** The clone's git, as it was when the commit was found there: every read asks the same. */
  private readonly git: Git = activeGit();

  constructor(
    /** The full commit id. */
    readonly commit: string,
    /** The repository's root, where git runs. */
    readonly root: string,
    /** The commit as messages name it. */
    readonly label: string,
  ) {}

  private entries(tree: string): Promise<Map<string, TreeEntry>> {
    let listed = this.trees.get(tree);
    if (!listed) {
      listed = this.git.entries(tree, this.root);
      this.trees.set(tree, listed);
    }
    return listed;
  }

  private refuse(path: string, why: string): never {
    throw new AuditError(
      `${path} at ${this.label} ${why}, so it cannot be read there.`,
      'Keep the class list, the config file and the settings files as plain files in the repository (a symlink may point only inside it).',
    );
  }

  /**
   * The text of `repoPath` at the commit, symlinks in the commit's tree followed (inside the
   * repository only, at most MAX_LINKS); null only when the tree proves there is no such file.
   */
  async read(repoPath: string): Promise<string | null> {
    const root = await this.git.tree(this.commit, this.root);
    const todo = repoPath.split('/');
    // The folders walked so far, with their trees: `..` steps back within the commit.
    const walked: { name: string; tree: string }[] = [];
    let links = 0;
    while (todo.length) {
      const name = todo.shift() as string;
      if (name === '' || name === '.') continue;
      if (name === '..') {
        if (!walked.pop()) this.refuse(repoPath, 'leaves the repository');
        continue;
      }
      const tree = walked.at(-1)?.tree ?? root;
      const entry = (await this.entries(tree)).get(name);
      const here = [...walked.map((w) => w.name), name].join('/');
      if (!entry) return null;
      if (entry.mode === '120000') {
        if (++links > MAX_LINKS) this.refuse(repoPath, `passes more than ${MAX_LINKS} symlinks`);
        const target = await this.git.blob(entry.object, this.root);
        if (target.startsWith('/') || /^[A-Za-z]:/.test(target))
          this.refuse(repoPath, `goes through the symlink ${here}, which points outside it`);
        todo.unshift(...target.split('/'));
        continue;
      }
      if (entry.type === 'tree') walked.push({ name, tree: entry.object });
      else if (entry.type === 'blob') {
        // A file where the path needs a folder: the commit holds nothing at the path.
        if (todo.some((rest) => rest !== '' && rest !== '.')) return null;
        return this.git.blob(entry.object, this.root);
      } else this.refuse(repoPath, `goes through ${here}, a submodule`);
    }
    return this.refuse(repoPath, 'is a folder');
  }
}

/** What a base commit missing from the clone needs: the fetch that brings it. */
function missingCommit(ref: string, label: string, why: string): AuditError {
  const hex = /^[0-9a-f]{7,64}$/i.test(ref);
  return new AuditError(
    `${label} is not in this clone${why ? ` (${why})` : ''}: without its class list and config, what this change does to the reviewed tools cannot be checked.`,
    hex
      ? `Fetch it first: git fetch --depth=1 origin ${ref} (in a workflow, actions/checkout with fetch-depth: 0 has every commit).`
      : `Fetch it first (git fetch origin ${ref}), or give --base-ref a commit this clone holds.`,
  );
}

/**
 * The base commit `ref` as a {@link BaseTree}, from the repository at `cwd`. A commit this clone
 * does not hold is fetched when `fetch` says so (the action, from origin), else, or when that
 * fails, an error that says what to fetch: "no base" is never assumed.
 */
export async function baseTree(
  ref: string,
  options: { cwd: string; label: string; fetch?: boolean },
): Promise<BaseTree> {
  const { cwd, label } = options;
  if (NULL_SHA.test(ref))
    throw new AuditError(
      `${label} is the all-zero commit id, which names no commit (a push that creates a branch has no before).`,
      'Give --base-ref the commit to compare with, e.g. the branch this one starts from.',
    );
  const root = await gitTopLevel(cwd);
  if (root === undefined)
    throw new AuditError(
      `${label} cannot be read: ${cwd} is not in a git repository.`,
      'Run in a clone of the repository (in a workflow: after actions/checkout); the CLI also takes the base class list as --base.',
    );
  const git = activeGit();
  let commit = await git.commit(ref, root);
  let why = '';
  if (commit === undefined && options.fetch && /^[0-9a-f]{40}$/i.test(ref)) {
    await git.fetch(ref, root).catch((error: Error) => {
      why = `fetching it failed: ${gitMessage(error.message).split('\n')[0]}`;
    });
    commit = await git.commit(ref, root);
  }
  if (commit === undefined) throw missingCommit(ref, label, why);
  return new BaseTree(commit, root, label);
}
