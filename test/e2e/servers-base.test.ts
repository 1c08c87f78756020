// The servers a PR audits are compared with the base's as the run takes them: the config file's,
// or .mcp.json's where the config file lists none, at the base as now. Moving servers between
// the two files, renaming a server's key, or changing a .mcp.json-only project's command must
// not shed what the base's entry held. Through the CLI, real server processes and a git base,
// once; the variants run in memory in test/unit/servers-base.test.ts.
import { describe, expect, it } from 'vitest';
import { json, notesSpec, runCli, tempDir } from '../support/cli.js';
import { git } from '../support/git.js';

import { configurable, putFiles } from '../support/base-fixtures.js';

const CONFIG = '.github/mcp-annotation-auditor.yml';

/** Records the class list with plain update (the run's own servers), and commits everything. */
async function recordAndCommit(dir: string, message: string): Promise<void> {
  const update = await runCli(['update', '--prune'], { cwd: dir });
  expect(update.code, update.stderr).toBe(0);
  await git(dir, 'add', '-A');
  await git(dir, 'commit', '-q', '-m', message);
}

/** A repository whose base commit holds `files`, the notes spec and its class list. */
async function repository(files: Record<string, unknown>): Promise<string> {
  const dir = await tempDir();
  await git(dir, 'init', '-q');
  const spec = await notesSpec();
  await putFiles(dir, { 'spec.json': spec, ...files });
  await recordAndCommit(dir, 'base');
  return dir;
}

function check(dir: string) {
  return runCli(['check', '--format', 'json', '--base-ref', 'HEAD~1'], { cwd: dir });
}

function findingsOf(run: Awaited<ReturnType<typeof check>>): string[] {
  return json(run).findings.map((f) => `${f.severity} ${f.rule}: ${f.message}`);
}

describe('servers compared with the base as the run takes them', () => {
  it('servers moved from the config file to .mcp.json keep the base entry: narrowing protocolEra is config-relaxed', async () => {
    const dir = await repository({
      [CONFIG]: {
        policies: ['claude'],
        servers: { notes: configurable('spec.json', { protocolEra: 'both' }) },
      },
    });
    await putFiles(dir, {
      [CONFIG]: { policies: ['claude'] },
      '.mcp.json': { mcpServers: { notes: configurable('spec.json') } },
    });
    await recordAndCommit(dir, 'servers moved to .mcp.json');
    const run = await check(dir);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(findingsOf(run)).toContainEqual(
      expect.stringMatching(
        /^error config-relaxed: .*server "notes": protocolEra is legacy \(was both\)/,
      ),
    );
  });
});
