// The servers a PR audits are compared with the base's as the run takes them: the config file's,
// or .mcp.json's where the config file lists none, at the base as now. Moving servers between
// the two files, renaming a server's key, or changing a .mcp.json-only project's command must
// not shed what the base's entry held. The CLI's engine in this process, servers and git in
// memory; test/e2e/servers-base.test.ts runs the main case (there only).
import { describe, expect, it } from 'vitest';
import { json, notesSpec, type Run } from '../support/cli.js';
import { memoryRepository, type MemoryRepository } from '../support/repo-in-memory.js';

import { configurable, putFiles } from '../support/base-fixtures.js';

const CONFIG = '.github/mcp-annotation-auditor.yml';

/** Records the class list with plain update (the run's own servers), and commits everything. */
async function recordAndCommit(repo: MemoryRepository): Promise<void> {
  const update = await repo.cli(['update', '--prune']);
  expect(update.code, update.stderr).toBe(0);
  await repo.git.commitWorkingTree();
}

/** A repository whose base commit holds `files`, the notes spec and its class list. */
async function repository(files: Record<string, unknown>): Promise<MemoryRepository> {
  const repo = await memoryRepository();
  const spec = await notesSpec();
  await putFiles(repo.dir, { 'spec.json': spec, ...files });
  await recordAndCommit(repo);
  return repo;
}

function check(repo: MemoryRepository): Promise<Run> {
  return repo.cli(['check', '--format', 'json', '--base-ref', 'HEAD~1']);
}

function findingsOf(run: Run): string[] {
  return json(run).findings.map((f) => `${f.severity} ${f.rule}: ${f.message}`);
}

describe('servers compared with the base as the run takes them', () => {
  it('a .mcp.json-only project whose command no longer lists the delete tool is start-removed', async () => {
    const spec = await notesSpec();
    const lite = { ...spec, tools: spec.tools.filter((t) => t.name !== 'delete_note') };
    const repo = await repository({
      '.mcp.json': { mcpServers: { notes: configurable('spec.json') } },
    });
    await putFiles(repo.dir, {
      'lite.json': lite,
      '.mcp.json': { mcpServers: { notes: configurable('lite.json') } },
    });
    await recordAndCommit(repo);
    const run = await check(repo);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(findingsOf(run)).toContainEqual(expect.stringMatching(/^error start-removed: /));
  });

  it('a server under a new key is compared with the base entry it replaces: alwaysAllow added is config-relaxed', async () => {
    const repo = await repository({
      [CONFIG]: { policies: ['claude'], servers: { notes: configurable('spec.json') } },
    });
    await putFiles(repo.dir, {
      [CONFIG]: {
        policies: ['claude'],
        servers: { notes_v2: configurable('spec.json', { alwaysAllow: ['delete_note'] }) },
      },
    });
    await recordAndCommit(repo);
    const run = await check(repo);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(findingsOf(run)).toContainEqual(
      expect.stringMatching(
        /^error config-relaxed: .*server "notes" \(under the new key "notes_v2"\): alwaysAllow is added/,
      ),
    );
  });
});
