import { execFile } from 'node:child_process';
import { AsyncLocalStorage } from 'node:async_hooks';
import { resolve } from 'node:path';
import { BASE_ENV } from './server/process.js';

const BASE = new Set(BASE_ENV.map((key) => key.toUpperCase()));

/** What git needs beyond a server's base: its own settings, ssh, proxies and CA files. */
const GIT_ENV =
  /^(GIT_|SSH_)|^(HTTPS?_PROXY|ALL_PROXY|NO_PROXY|SSL_CERT_(FILE|DIR)|CURL_CA_BUNDLE|XDG_CONFIG_HOME|HOMEDRIVE|HOMEPATH|ProgramData)$/i;

/**
 * The environment git runs in: a short list, as for the server, so that the token, the action's
 * inputs and the job's secrets are not in it (hooks or config under .git may be the PR's). Replace
 * refs are not followed.
 */
export function gitEnvironment(from: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(from))
    // Names as Windows spells them too (Path, SystemRoot): case does not matter there.
    if (BASE.has(key.toUpperCase()) || GIT_ENV.test(key)) env[key] = value;
  env.GIT_NO_REPLACE_OBJECTS = '1';
  return env;
}

/**
 * What git printed, less the full stop that ends each of its lines ("fatal: invalid object name
 * 'x'."): every message that quotes it goes on, or ends, with punctuation of its own.
 */
export function gitMessage(stderr: string): string {
  return stderr.trim().replace(/(?<!\.)\.[ \t]*$/gm, '');
}

/** Runs git (in {@link gitEnvironment}); rejects with what git printed on stderr. */
export function git(args: string[], cwd?: string): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(
      'git',
      args,
      {
        cwd,
        maxBuffer: 64 * 1024 * 1024,
        env: gitEnvironment(),
      },
      (error, stdout, stderr) =>
        error ? reject(new Error(gitMessage(stderr) || error.message)) : resolve(stdout),
    ),
  );
}

/** Whether git exits 0 for `args` (a question git answers by its exit status alone). */
export function gitSucceeds(args: string[], cwd?: string): Promise<boolean> {
  return git(args, cwd).then(
    () => true,
    () => false,
  );
}

/**
 * The commit `ref` names, when this clone holds that commit; undefined when it does not. Asked
 * with `^{commit}`: a bare 40-hex name "verifies" even when no such object is here.
 */
export async function commitOf(ref: string, cwd?: string): Promise<string | undefined> {
  const out = await git(
    ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`],
    cwd,
  ).catch(() => '');
  const sha = out.trim();
  return /^[0-9a-f]{40,64}$/.test(sha) ? sha : undefined;
}

/**
 * A file's text at a commit (`git show REV:PATH`), or null when the commit does not hold it. That
 * "does not hold it" is proved, never read from git's message: the commit is in this clone and
 * `git ls-tree` finds nothing at the path. Anything else is git's error.
 */
export async function gitShow(object: string, cwd?: string): Promise<string | null> {
  try {
    return await git(['show', object], cwd);
  } catch (error) {
    const colon = object.indexOf(':');
    const [rev, path] = [object.slice(0, colon), object.slice(colon + 1)];
    if (colon > 0 && path && (await commitOf(rev, cwd)) !== undefined) {
      const listed = await git(['ls-tree', '-z', '--end-of-options', rev, '--', path], cwd).catch(
        () => undefined,
      );
      if (listed === '') return null;
    }
    throw error;
  }
}

/** One entry of a tree, as `git ls-tree` lists it: `mode`, `type` (blob, tree, commit), `object`. */
export interface TreeEntry {
  mode: string;
  type: string;
  object: string;
}

/**
 * The few questions the auditor asks of a clone, each one git operation: the seam between the
 * engine and the `git` process. The engine never runs git but through one of these; the default,
 * {@link processGit}, runs the real `git` as before. A caller in code (the unit tests, through
 * {@link withGit}) may answer them from memory instead; nothing a run reads (config, inputs,
 * environment, the PR's files) can pick the Git. What is trusted in a base read (resolving a path
 * in the base commit's own tree, symlinks, "no such file") stays in config/base-reader.ts, over
 * these raw objects.
 */
export interface Git {
  /** The repository's root (`rev-parse --show-toplevel`) from `cwd`; undefined outside one. */
  topLevel(cwd?: string): Promise<string | undefined>;
  /** See {@link commitOf}: the full commit id `ref` names, when this clone holds the commit. */
  commit(ref: string, cwd?: string): Promise<string | undefined>;
  /** The root tree of a commit (`rev-parse --verify C^{tree}`); rejects when there is none. */
  tree(commit: string, cwd?: string): Promise<string>;
  /** A tree's entries by name (`ls-tree -z --full-tree`); rejects when the tree is not here. */
  entries(tree: string, cwd?: string): Promise<Map<string, TreeEntry>>;
  /** A blob's text (`cat-file blob`); rejects when the object is missing. */
  blob(object: string, cwd?: string): Promise<string>;
  /** Brings one commit from origin (`fetch --no-tags --depth=1`); rejects with git's message. */
  fetch(ref: string, cwd?: string): Promise<void>;
  /** Whether the index tracks `path` (`ls-files --error-unmatch`); false outside a repository. */
  tracked(path: string, cwd?: string): Promise<boolean>;
  /** See {@link gitShow}: `git show REV:PATH`, null when the commit is proved not to hold it. */
  show(object: string, cwd?: string): Promise<string | null>;
}

/** The real `git`, run as a process in {@link gitEnvironment}: what every run uses by default. */
export const processGit: Git = {
  async topLevel(cwd) {
    const top = await git(['rev-parse', '--show-toplevel'], cwd).then(
      (out) => out.trim(),
      () => '',
    );
    return top || undefined;
  },
  commit: (ref, cwd) => commitOf(ref, cwd),
  async tree(commit, cwd) {
    return (await git(['rev-parse', '--verify', `${commit}^{tree}`], cwd)).trim();
  },
  async entries(tree, cwd) {
    const out = await git(['ls-tree', '-z', '--full-tree', tree], cwd);
    const map = new Map<string, TreeEntry>();
    for (const line of out.split('\0')) {
      const tab = line.indexOf('\t');
      if (tab < 0) continue;
      const [mode = '', type = '', object = ''] = line.slice(0, tab).split(' ');
      map.set(line.slice(tab + 1), { mode, type, object });
    }
    return map;
  },
  blob: (object, cwd) => git(['cat-file', 'blob', object], cwd),
  async fetch(ref, cwd) {
    await git(['fetch', '--no-tags', '--depth=1', 'origin', ref], cwd);
  },
  tracked: (path, cwd) => gitSucceeds(['ls-files', '--error-unmatch', '--', path], cwd),
  show: (object, cwd) => gitShow(object, cwd),
};

const scoped = new AsyncLocalStorage<Git>();

/**
 * Runs `work` with `git` answering every git question the engine asks within it (its awaits and
 * callbacks included), then as before. For a caller in code only: the tests' in-memory clone.
 */
export function withGit<T>(git: Git, work: () => Promise<T>): Promise<T> {
  return scoped.run(git, work);
}

/** The Git the engine asks: the one {@link withGit} set for this run, else the real `git`. */
export function activeGit(): Git {
  return scoped.getStore() ?? processGit;
}

/**
 * The top level of each folder asked in this run, by the Git that answered (see forgetTopLevels):
 * the action asks it for the workspace (where it writes) and for the class list's path, the same
 * folder, and each question is a git process.
 */
const topLevels = new Map<Git, Map<string, Promise<string | undefined>>>();

/** The repository's root from `cwd` (the current folder), asked of the active Git once a run. */
export function topLevelOf(cwd?: string): Promise<string | undefined> {
  const active = activeGit();
  let asked = topLevels.get(active);
  if (!asked) {
    asked = new Map();
    topLevels.set(active, asked);
  }
  const key = resolve(cwd ?? process.cwd());
  let answer = asked.get(key);
  if (!answer) {
    answer = active.topLevel(cwd);
    asked.set(key, answer);
  }
  return answer;
}

/** A new run (a command, an action step) asks afresh: what an earlier run learnt is dropped. */
export function forgetTopLevels(): void {
  topLevels.clear();
}
