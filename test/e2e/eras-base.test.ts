// protocolEra both against a git base: each era's listing counts on its own, so a hint one era
// alone drops is drift, then hint-dropped once recorded; narrowing both to one era is
// config-relaxed. Through the CLI and a real server that answers each era its own way, once; the
// variants run in memory in test/unit/eras-base.test.ts.
import { describe, expect, it } from 'vitest';
import { json, notesSpec, runCli, tempDir, withAnnotations, writeConfig } from '../support/cli.js';
import { git } from '../support/git.js';
import { eraConfig, serveEras } from '../support/base-fixtures.js';

type Spec = Awaited<ReturnType<typeof notesSpec>>;

/** A base commit serving the notes tools alike in both eras, recorded with protocolEra both. */
async function repository(): Promise<{ dir: string; spec: Spec }> {
  const dir = await tempDir();
  const spec = await notesSpec();
  await serveEras(dir, spec, spec);
  await writeConfig(dir, eraConfig());
  const update = await runCli(['update', '--config', 'auditor.yml'], { cwd: dir });
  expect(update.code, update.stderr).toBe(0);
  await git(dir, 'init', '-q');
  await git(dir, 'add', '.');
  await git(dir, 'commit', '-q', '-m', 'base');
  return { dir, spec };
}

function check(dir: string, ...args: string[]) {
  return runCli(
    ['check', '--format', 'json', '--config', 'auditor.yml', '--base-ref', 'HEAD', ...args],
    { cwd: dir },
  );
}

function rules(run: Awaited<ReturnType<typeof runCli>>, severity: string): string[] {
  return json(run)
    .findings.filter((f) => f.severity === severity)
    .map((f) => `${f.rule}:${f.tool ?? ''}`)
    .sort();
}

describe('22.5: protocolEra both, a hint dropped in the modern era only', () => {
  it('is drift and hint-dropped before update, update records it, and check then fails on hint-dropped', async () => {
    const { dir, spec } = await repository();
    // Neither class nor reach moves: only the diff of each era's declaration can catch it.
    await serveEras(dir, spec, withAnnotations(spec, 'delete_note', { idempotentHint: undefined }));

    const drift = await check(dir);
    expect(drift.code, drift.stdout).toBe(1);
    expect(rules(drift, 'error')).toEqual([
      'hint-dropped:delete_note',
      'unrecorded-change:delete_note',
    ]);
    expect(rules(drift, 'warning')).toEqual(['era-mismatch:delete_note']);

    const update = await runCli(['update', '--config', 'auditor.yml'], { cwd: dir });
    expect(update.code, update.stderr).toBe(0);
    expect(update.stdout).toContain('UPDATED: ');

    const run = await check(dir);
    expect(run.code, run.stdout).toBe(1);
    expect(rules(run, 'error')).toEqual(['hint-dropped:delete_note']);
    expect(json(run).findings.find((f) => f.rule === 'hint-dropped')?.message).toBe(
      'idempotentHint (was true) no longer declared; clients now assume the default.',
    );
  });
});
