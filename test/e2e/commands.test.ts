// The CLI's commands in-process with a real git repository: --base-ref reads the class list at a
// ref through git. The other command variants run in memory in test/unit/commands.test.ts.
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/commands.js';
import { droppedHintServers, tempDir } from '../support/cli.js';

const exec = promisify(execFile);

describe('a base class list that does not parse', () => {
  let list: string;
  let dropped: string[];

  beforeAll(async () => {
    const dir = await tempDir();
    let original: string[];
    ({ original, dropped } = await droppedHintServers(dir));
    list = join(dir, 'mcp-tool-classes.json');
    // update writes only inside the current folder's repository: run it from the list's folder.
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      await runCli(['update', '--class-list', list, '--', ...original]);
    } finally {
      process.chdir(cwd);
    }
  });

  it('--base-ref only warns too, naming the class list at that ref', async () => {
    const repo = await tempDir();
    const git = (...args: string[]) =>
      exec('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: repo });
    await git('init', '-q');
    await writeFile(join(repo, 'mcp-tool-classes.json'), '{"version":1,"tools":{');
    await git('add', 'mcp-tool-classes.json');
    await git('commit', '-q', '-m', 'broken class list');
    await writeFile(join(repo, 'mcp-tool-classes.json'), await readFile(list, 'utf8'));
    const cwd = process.cwd();
    process.chdir(repo);
    try {
      const run = await runCli(['check', '--base-ref', 'HEAD', '--', ...dropped]);
      expect(run.exitCode, run.stderr).toBe(1);
      expect(run.stderr).toMatch(
        /^mcp-annotation-auditor: warning: The class list mcp-tool-classes\.json at HEAD is not valid JSON at line 1, .* Comparing with the class list at HEAD only\.\n$/,
      );
    } finally {
      process.chdir(cwd);
    }
  });
});
