// Messages built from what git prints.
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { readAtRef } from '../../src/audit.js';
import { gitMessage, gitShow } from '../../src/git.js';
import { tempDir } from '../support/cli.js';

const exec = promisify(execFile);

describe('git errors', () => {
  it("lose git's closing full stop, so a message that goes on has one, not two", async () => {
    const dir = await tempDir();
    await exec('git', ['init', '-q'], { cwd: dir });
    await writeFile(join(dir, 'mcp-tool-classes.json'), '{}');
    await expect(gitShow('nosuchref:./mcp-tool-classes.json', dir)).rejects.toThrow(
      /^fatal: invalid object name 'nosuchref'$/i,
    );
    const error = await readAtRef('nosuchref', 'mcp-tool-classes.json', dir).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(
      /^Could not read mcp-tool-classes\.json at nosuchref: fatal: invalid object name 'nosuchref'\.$/i,
    );
    expect(error?.message).not.toContain('..');
  });

  it('keeps an ellipsis, and every line but its full stop', () => {
    expect(gitMessage("fatal: bad revision 'x'.\nUse '--' to separate paths.\n")).toBe(
      "fatal: bad revision 'x'\nUse '--' to separate paths",
    );
    expect(gitMessage('still waiting...')).toBe('still waiting...');
    expect(gitMessage('fatal: not a git repository: .git')).toBe(
      'fatal: not a git repository: .git',
    );
  });
});
