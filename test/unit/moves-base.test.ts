// A tool that moves from one server to another in a PR, or is renamed with a new schema: the
// base's reviewed record must still be what it is compared with, so a relaxed class or a dropped
// hint is not passed off as a tool removed here and another added there. The CLI's engine in this
// process, servers and the base commit's git in memory; the real CLI, servers and git run one of
// these in test/e2e/moves-cli.test.ts.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  json,
  notesSpec,
  SERVERS,
  withAnnotations,
  writeConfig,
  type Run,
} from '../support/cli.js';
import { memoryRepository, type MemoryRepository } from '../support/repo-in-memory.js';

type Spec = Awaited<ReturnType<typeof notesSpec>>;

/** A config entry that serves the spec in `dir/<file>`. */
function served(file: string): Record<string, unknown> {
  return { command: 'node', args: [join(SERVERS, 'configurable.mjs'), file] };
}

async function update(repo: MemoryRepository): Promise<void> {
  const run = await repo.cli(['update', '--config', 'auditor.yml']);
  expect(run.code, run.stderr).toBe(0);
}

/** A repository whose one commit holds the config (server notes), the spec and its class list. */
async function repository(): Promise<MemoryRepository & { spec: Spec }> {
  const repo = await memoryRepository();
  const spec = await notesSpec();
  await writeFile(join(repo.dir, 'spec.json'), JSON.stringify(spec));
  await writeConfig(repo.dir, { servers: { notes: served('spec.json') } });
  await update(repo);
  await repo.git.commitWorkingTree();
  return { ...repo, spec };
}

function check(repo: MemoryRepository, ...args: string[]): Promise<Run> {
  return repo.cli([
    'check',
    '--format',
    'json',
    '--config',
    'auditor.yml',
    '--base-ref',
    'HEAD',
    ...args,
  ]);
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
  await update(repo);
}

function deleteNote(spec: Spec): Spec['tools'][number] {
  return spec.tools.find((t) => t.name === 'delete_note') as Spec['tools'][number];
}

describe('a tool moved to another server in the PR', () => {
  it('a delete tool moved to a new server as edit is a class-relaxed error, said to have moved', async () => {
    const repo = await repository();
    const { spec } = repo;
    const relaxed = withAnnotations(spec, 'delete_note', { destructiveHint: false });
    await moveTo(repo, spec, deleteNote(relaxed));
    const run = await check(repo);
    expect(run.code, run.stdout).toBe(1);
    const report = json(run);
    expect(report.result).toBe('failed');
    const rules = report.findings.filter((f) => f.tool === 'delete_note').map((f) => f.rule);
    expect(rules).toEqual(expect.arrayContaining(['tool-renamed', 'class-relaxed']));
    expect(rules).not.toContain('tool-removed');
    expect(rules).not.toContain('tool-added');
    expect(report.findings.find((f) => f.rule === 'class-relaxed')?.severity).toBe('error');
    expect(report.findings.find((f) => f.rule === 'tool-renamed')?.message).toContain(
      'Moved from server "notes" to server "notes2" (same tool name)',
    );
    expect(report.changes.filter((c) => c.tool === 'delete_note')).toMatchObject([
      {
        kind: 'renamed',
        renamedFrom: 'mcp__notes__delete_note',
        before: { class: 'delete' },
        after: { class: 'edit' },
      },
    ]);
    const text = await repo.cli(['check', '--config', 'auditor.yml', '--base-ref', 'HEAD']);
    expect(text.stdout).toContain('delete_note: moved from server notes; class delete -> edit');
    expect((await check(repo, '--approved')).code).toBe(0);
  });

  it('a tool moved unchanged passes, as a move rather than removed and added', async () => {
    const repo = await repository();
    const { spec } = repo;
    await moveTo(repo, spec, deleteNote(spec));
    const run = await check(repo);
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
    const run = await check(repo);
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
    await update(repo);
    const run = await check(repo);
    const findings = json(run).findings.filter((f) => f.tool === 'remove_note');
    expect(findings.map((f) => f.rule)).toEqual(
      expect.arrayContaining(['tool-renamed', 'hint-dropped']),
    );
    expect(findings.find((f) => f.rule === 'hint-dropped')?.message).toContain('idempotentHint');
  });
});
