import { execFile } from 'node:child_process';

/** Runs git; rejects with what git printed on stderr. */
export function git(args: string[], cwd?: string): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile('git', args, { cwd, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      error ? reject(new Error(stderr.trim() || error.message)) : resolve(stdout),
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
