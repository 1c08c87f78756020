import { execFile } from 'node:child_process';

/**
 * The environment git runs in: ours without the action's inputs (the github-token among them) and
 * runner tokens. Code of the PR may have written .git (hooks, a remote, config that runs
 * commands), so git must hold nothing that code may not see.
 */
export function gitEnvironment(from: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(from))
    if (!/^(INPUT_|ACTIONS_)|^(GITHUB_TOKEN|GH_TOKEN)$/i.test(key)) env[key] = value;
  // Replace refs are ignored: a commit's files are what its hash says.
  env.GIT_NO_REPLACE_OBJECTS = '1';
  return env;
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
