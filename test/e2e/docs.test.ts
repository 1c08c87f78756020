import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { RULE_IDS, RULES } from '../../src/core/rules.js';
import { ROOT } from '../support/cli.js';

const run = promisify(execFile);

// That dist/ matches a fresh build of src/ is npm test's build:check, run once before the tests.
describe('docs that cannot drift', () => {
  it('the README inputs and outputs tables match action.yml', async () => {
    await expect(
      run(process.execPath, [join(ROOT, 'scripts/readme.mjs'), '--check'], { cwd: ROOT }),
    ).resolves.toBeDefined();
  });

  it('the README rules table lists every rule with its default severity', async () => {
    const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(
      readme.indexOf('<!-- rules:start -->'),
      readme.indexOf('<!-- rules:end -->'),
    );
    const cells = (line: string) =>
      line
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim());
    const rows = section
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('|'))
      .slice(2)
      .map(cells);
    expect(rows).toEqual(
      RULE_IDS.map((id) => [
        `\`${id}\``,
        RULES[id].severity,
        `${RULES[id].summary}${RULES[id].approvable ? ' (approvable)' : ''}`,
      ]),
    );
  });

  it('the README quick start is exactly the two commands', async () => {
    const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
    const quick = readme.slice(
      readme.indexOf('## Quick start'),
      readme.indexOf('## What it checks'),
    );
    expect([...quick.matchAll(/```sh\n(.+)\n```/g)].map((m) => m[1])).toEqual([
      'npm ci && npx mcp-annotation-auditor check -- node examples/notes/server.mjs',
      'npm ci && npm test',
    ]);
  });
});
