// protocolEra both against a git base: each era's listing counts on its own, so a hint one era
// alone drops is drift, then hint-dropped once recorded; narrowing both to one era is
// config-relaxed. The CLI's engine in this process, the era-aware server (era-spec.mjs's twin)
// and the base commit's git in memory; test/e2e/eras-base.test.ts runs the first end to end.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditListings } from '../../src/core/listings.js';
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

function config(era = 'both'): Record<string, unknown> {
  return {
    policies: ['claude'],
    servers: {
      notes: {
        command: 'node',
        args: [join(SERVERS, 'era-spec.mjs'), 'eras.json'],
        protocolEra: era,
      },
    },
  };
}

async function serve(dir: string, legacy: Spec, modern: Spec): Promise<void> {
  await writeFile(
    join(dir, 'eras.json'),
    JSON.stringify({ name: 'notes', legacy: legacy.tools, modern: modern.tools }),
  );
}

/** A base commit serving the notes tools alike in both eras, recorded with protocolEra both. */
async function repository(): Promise<MemoryRepository & { spec: Spec }> {
  const repo = await memoryRepository();
  const spec = await notesSpec();
  await serve(repo.dir, spec, spec);
  await writeConfig(repo.dir, config());
  const update = await repo.cli(['update', '--config', 'auditor.yml']);
  expect(update.code, update.stderr).toBe(0);
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

function rules(run: Run, severity: string): string[] {
  return json(run)
    .findings.filter((f) => f.severity === severity)
    .map((f) => `${f.rule}:${f.tool ?? ''}`)
    .sort();
}

describe('22.5: protocolEra both, a hint dropped in the modern era only', () => {
  it('is drift and hint-dropped before update, update records it, and check then fails on hint-dropped', async () => {
    const repo = await repository();
    const { dir, spec } = repo;
    // Neither class nor reach moves: only the diff of each era's declaration can catch it.
    await serve(dir, spec, withAnnotations(spec, 'delete_note', { idempotentHint: undefined }));

    const drift = await check(repo);
    expect(drift.code, drift.stdout).toBe(1);
    expect(rules(drift, 'error')).toEqual([
      'hint-dropped:delete_note',
      'unrecorded-change:delete_note',
    ]);
    expect(rules(drift, 'warning')).toEqual(['era-mismatch:delete_note']);

    const update = await repo.cli(['update', '--config', 'auditor.yml']);
    expect(update.code, update.stderr).toBe(0);
    expect(update.stdout).toContain('UPDATED: ');

    const run = await check(repo);
    expect(run.code, run.stdout).toBe(1);
    expect(rules(run, 'error')).toEqual(['hint-dropped:delete_note']);
    expect(json(run).findings.find((f) => f.rule === 'hint-dropped')?.message).toBe(
      'idempotentHint (was true) no longer declared; clients now assume the default.',
    );
  });

  it('a hint dropped in the legacy era only fails the same way', async () => {
    const repo = await repository();
    const { dir, spec } = repo;
    await serve(dir, withAnnotations(spec, 'delete_note', { idempotentHint: undefined }), spec);
    const update = await repo.cli(['update', '--config', 'auditor.yml']);
    expect(update.code, update.stderr).toBe(0);
    const run = await check(repo);
    expect(run.code, run.stdout).toBe(1);
    expect(rules(run, 'error')).toEqual(['hint-dropped:delete_note']);
  });

  it('destructiveHint turned false for modern clients only is hint-dropped, not only era-mismatch', async () => {
    const repo = await repository();
    const { dir, spec } = repo;
    await serve(dir, spec, withAnnotations(spec, 'delete_note', { destructiveHint: false }));
    const update = await repo.cli(['update', '--config', 'auditor.yml']);
    expect(update.code, update.stderr).toBe(0);
    const run = await check(repo);
    expect(run.code, run.stdout).toBe(1);
    expect(rules(run, 'error')).toEqual(['hint-dropped:delete_note']);
    expect(rules(run, 'warning')).toEqual(['era-mismatch:delete_note']);
  });

  it('switching both to legacy in the PR config is config-relaxed', async () => {
    const repo = await repository();
    const { dir } = repo;
    await writeConfig(dir, config('legacy'));
    const run = await check(repo);
    expect(run.code, run.stdout).toBe(1);
    expect(json(run).findings.map((f) => [f.rule, f.message])).toEqual([
      [
        'config-relaxed',
        'The config auditor.yml relaxes the check against auditor.yml at HEAD: server "notes": protocolEra is legacy (was both): the other era is no longer audited.',
      ],
    ]);
  });
});

describe('the union of two eras, in-process', () => {
  const hints = {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  };
  const tool = (annotations: Record<string, unknown>) => ({ name: 'sync', annotations });

  it('records a hint only where both eras declare it alike', () => {
    const { tools } = auditListings(
      [
        { era: 'legacy', rawTools: [tool({ ...hints, openWorldHint: undefined })] },
        { era: 'modern', rawTools: [tool({ ...hints, idempotentHint: false })] },
      ],
      [],
    );
    expect(tools).toHaveLength(1);
    const [merged] = tools;
    // openWorldHint absent in legacy, idempotentHint true vs false: neither is declared to all.
    expect(merged?.hints.openWorldHint).toEqual({ declared: false, effective: true });
    expect(merged?.hints.idempotentHint).toEqual({ declared: false, effective: false });
    expect(merged?.hints.destructiveHint).toEqual({
      declared: true,
      value: false,
      effective: false,
    });
    expect([merged?.class, merged?.reach]).toEqual(['edit', 'open']);
  });
});
