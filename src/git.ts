import { execFile } from 'node:child_process';
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
