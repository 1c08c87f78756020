// A tool that moves from one server to another in a PR, or is renamed with a new schema: the
// base's reviewed record must still be what it is compared with, so a relaxed class or a dropped
// hint is not passed off as a tool removed here and another added there. Through the CLI, real
// server processes and a git base, once; the variants run in memory in test/unit/moves-base.test.ts.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  json,
  notesSpec,
  runCli,
  SERVERS,
  tempDir,
  withAnnotations,
  writeConfig,
} from '../support/cli.js';
import { git } from '../support/git.js';

type Spec = Awaited<ReturnType<typeof notesSpec>>;

/** A config entry that serves the spec in `dir/<file>`. */
function served(file: string): Record<string, unknown> {
  return { command: 'node', args: [join(SERVERS, 'configurable.mjs'), file] };
}

async function update(dir: string): Promise<void> {
  const run = await runCli(['update', '--config', 'auditor.yml'], { cwd: dir });
  expect(run.code, run.stderr).toBe(0);
}

/** A repository whose one commit holds the config (server notes), the spec and its class list. */
async function repository(): Promise<{ dir: string; spec: Spec; base: string }> {
  const dir = await tempDir();
  const spec = await notesSpec();
  await writeFile(join(dir, 'spec.json'), JSON.stringify(spec));
  await writeConfig(dir, { servers: { notes: served('spec.json') } });
  await update(dir);
  await git(dir, 'init', '-q');
  await git(dir, 'add', '.');
  await git(dir, 'commit', '-q', '-m', 'base');
  return { dir, spec, base: 'HEAD' };
}

function check(dir: string, ...args: string[]) {
  return runCli(
    ['check', '--format', 'json', '--config', 'auditor.yml', '--base-ref', 'HEAD', ...args],
    { cwd: dir },
  );
}

/** The PR: `moved` (one tool of the notes spec) leaves notes for a new server notes2. */
async function moveTo(dir: string, spec: Spec, moved: Spec['tools'][number]): Promise<void> {
  const kept = { ...spec, tools: spec.tools.filter((t) => t.name !== 'delete_note') };
  await writeFile(join(dir, 'spec.json'), JSON.stringify(kept));
  await writeFile(join(dir, 'spec2.json'), JSON.stringify({ name: 'notes2', tools: [moved] }));
  await writeConfig(dir, {
    servers: { notes: served('spec.json'), notes2: served('spec2.json') },
  });
  await update(dir);
}

function deleteNote(spec: Spec): Spec['tools'][number] {
  return spec.tools.find((t) => t.name === 'delete_note') as Spec['tools'][number];
}

describe('a tool moved to another server in the PR', () => {
  it('a delete tool moved to a new server as edit is a class-relaxed error, said to have moved', async () => {
    const { dir, spec } = await repository();
    const relaxed = withAnnotations(spec, 'delete_note', { destructiveHint: false });
    await moveTo(dir, spec, deleteNote(relaxed));
    const run = await check(dir);
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
    const text = await runCli(['check', '--config', 'auditor.yml', '--base-ref', 'HEAD'], {
      cwd: dir,
    });
    expect(text.stdout).toContain('delete_note: moved from server notes; class delete -> edit');
    expect((await check(dir, '--approved')).code).toBe(0);
  });
});
