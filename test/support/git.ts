// git in a scratch repository, as the tests' base commits are made: a fixed author, so that a
// machine without a git identity can commit.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const exec = promisify(execFile);

/** Runs git in `dir`; resolves with what it printed, trimmed. */
export async function git(dir: string, ...args: string[]): Promise<string> {
  const { stdout } = await exec(
    'git',
    ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args],
    { cwd: dir },
  );
  return stdout.trim();
}
