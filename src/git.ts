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

/** A file's text at a commit (`git show REV:PATH`), or null when the commit does not hold it. */
export async function gitShow(object: string, cwd?: string): Promise<string | null> {
  return git(['show', object], cwd).catch((error: Error) => {
    if (/does not exist in|exists on disk, but not in/.test(error.message)) return null;
    throw error;
  });
}
