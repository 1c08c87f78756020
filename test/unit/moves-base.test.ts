// A tool that moves from one server to another in a PR, or is renamed with a new schema: the
// base's reviewed record must still be what it is compared with, so a relaxed class or a dropped
// hint is not passed off as a tool removed here and another added there. The CLI's engine in this
// process, servers and the base commit's git in memory; the real CLI, servers and git run one of
// these in test/e2e/moves-cli.test.ts.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, notesSpec, SERVERS, withAnnotations, writeConfig } from '../support/cli.js';
import { memoryRepository, type MemoryRepository } from '../support/repo-in-memory.js';

type Spec = Awaited<ReturnType<typeof notesSpec>>;

/** A config entry that serves the spec in `dir/<file>`. */
function served(file: string): Record<string, unknown> {
  return { command: 'node', args: [join(SERVERS, 'configurable.mjs'), file] };
}

/** A repository whose one commit holds the config (server notes), the spec and its class list. */
async function repository(): Promise<MemoryRepository & { spec: Spec }> {
  const repo = await memoryRepository();
  const spec = await notesSpec();
  await writeFile(join(repo.dir, 'spec.json'), JSON.stringify(spec));
  await writeConfig(repo.dir, { servers: { notes: served('spec.json') } });
  await repo.update();
  await repo.git.commitWorkingTree();
  return { ...repo, spec };
}

/** The PR: `moved` (one tool of the notes spec) leaves notes for a new server notes2. */
async function moveTo(
  repo: MemoryRepository,
  spec: Spec,
  moved: Spec['tools'][number],
): Promise<void> {
  const kept = { ...spec, tools: spec.tools.filter((t) => t.name !== 'delete_note') };
  await writeFile(join(repo.dir, 'spec.json'), JSON.stringify(kept));
  await writeFile(join(repo.dir, 'spec2.json'), JSON.stringify({ name: 'notes2', tools: [moved] }));
  await writeConfig(repo.dir, {
    servers: { notes: served('spec.json'), notes2: served('spec2.json') },
  });
  await repo.update();
}

function deleteNote(spec: Spec): Spec['tools'][number] {
  return spec.tools.find((t) => t.name === 'delete_note') as Spec['tools'][number];
}

describe('a tool moved to another server in the PR', () => {
  it('a tool moved unchanged passes, as a move rather than removed and added', async () => {
    const repo = await repository();
    const { spec } = repo;
    await moveTo(repo, spec, deleteNote(spec));
    const run = await repo.checkAtHead();
    expect(run.code, run.stdout).toBe(0);
    const rules = json(run)
      .findings.filter((f) => f.tool === 'delete_note')
      .map((f) => f.rule);
    expect(rules).toEqual(['tool-renamed']);
  });

  it('moved and renamed with a new schema and a dropped hint is still compared: hint-dropped', async () => {
    const repo = await repository();
    const { spec } = repo;
    const tool = deleteNote(withAnnotations(spec, 'delete_note', { destructiveHint: undefined }));
    await moveTo(repo, spec, {
      ...tool,
      name: 'remove_note',
      inputSchema: { type: 'object', properties: { key: { type: 'string' } } },
    });
    const run = await repo.checkAtHead();
    expect(run.code, run.stdout).toBe(1);
    const rules = json(run)
      .findings.filter((f) => f.tool === 'remove_note')
      .map((f) => f.rule);
    expect(rules).toEqual(expect.arrayContaining(['tool-renamed', 'hint-dropped']));
  });
});

describe('a rename with a new schema', () => {
  it('that drops a hint the class is not read from is a probable rename, so hint-dropped', async () => {
    const repo = await repository();
    const { spec } = repo;
    const dropped = withAnnotations(spec, 'delete_note', { idempotentHint: undefined });
    const renamed = {
      ...dropped,
      tools: dropped.tools.map((t) =>
        t.name === 'delete_note'
          ? {
              ...t,
              name: 'remove_note',
              inputSchema: { type: 'object', properties: { key: { type: 'string' } } },
            }
          : t,
      ),
    };
    await writeFile(join(repo.dir, 'spec.json'), JSON.stringify(renamed));
    await repo.update();
    const run = await repo.checkAtHead();
    const findings = json(run).findings.filter((f) => f.tool === 'remove_note');
    expect(findings.map((f) => f.rule)).toEqual(
      expect.arrayContaining(['tool-renamed', 'hint-dropped']),
    );
    expect(findings.find((f) => f.rule === 'hint-dropped')?.message).toContain('idempotentHint');
  });
});
