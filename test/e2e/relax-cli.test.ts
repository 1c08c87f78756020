// Ways a PR's config or class list relaxes the check without dropping a hint: client rules and
// settings changed in the config, a delete tool recorded as edit, the audited command changed so
// the delete tool is no longer listed. Through the CLI, real server processes and a git base, one
// run each; the variants run in memory in test/unit/relax-base.test.ts.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, notesSpec, runCli, tempDir, withAnnotations, writeConfig } from '../support/cli.js';
import { git } from '../support/git.js';
import { BASE_CONFIG, served } from '../support/base-fixtures.js';

type Spec = Awaited<ReturnType<typeof notesSpec>>;

/** A repository whose one commit holds the config, the spec and its class list: the base. */
async function repository(): Promise<{ dir: string; spec: Spec }> {
  const dir = await tempDir();
  const spec = await notesSpec();
  await writeFile(join(dir, 'spec.json'), JSON.stringify(spec));
  await writeConfig(dir, BASE_CONFIG);
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

async function update(dir: string): Promise<void> {
  const run = await runCli(['update', '--config', 'auditor.yml'], { cwd: dir });
  expect(run.code, run.stderr).toBe(0);
}

/** A Claude Code settings file that allows every tool of the notes server. */
async function allowAll(dir: string, path = '.claude/settings.json'): Promise<void> {
  await mkdir(join(dir, path, '..'), { recursive: true });
  await writeFile(join(dir, path), JSON.stringify({ permissions: { allow: ['mcp__notes'] } }));
}

function relaxations(run: Awaited<ReturnType<typeof runCli>>): string[] {
  return json(run)
    .findings.filter((f) => f.rule === 'config-relaxed')
    .map((f) => f.message.replace(/^The config .* relaxes the check against .*?: /, ''));
}

describe('22.9: client rules and settings changed in the PR config', () => {
  it('clientRules delete: allow is config-relaxed, so an allow rule for the delete tool fails', async () => {
    const { dir } = await repository();
    await allowAll(dir);
    await writeConfig(dir, { ...BASE_CONFIG, clientRules: { delete: 'allow', edit: 'allow' } });
    const run = await check(dir);
    expect(run.code, run.stdout).toBe(1);
    expect(json(run).findings.some((f) => f.rule === 'rule-allows-delete')).toBe(false);
    expect(relaxations(run)).toEqual([
      'clientRules.delete is "allow" (was unset), clientRules.edit is "allow" (was unset): the Claude Code rules each class may have differ from the base.',
    ]);
  });
});

describe('22.11: a delete tool recorded as edit', () => {
  it('is a class-relaxed error (approvable); edit to read stays a warning', async () => {
    const { dir, spec } = await repository();
    await allowAll(dir);
    // Every hint still declared: destructiveHint true -> false is no dropped hint.
    const relaxed = withAnnotations(
      withAnnotations(spec, 'delete_note', { destructiveHint: false }),
      'add_note',
      { readOnlyHint: true },
    );
    await writeFile(join(dir, 'spec.json'), JSON.stringify(relaxed));
    await update(dir);
    const run = await check(dir);
    expect(run.code, run.stdout).toBe(1);
    const classRelaxed = json(run)
      .findings.filter((f) => f.rule === 'class-relaxed')
      .map((f) => [f.tool, f.severity, f.message]);
    expect(classRelaxed).toEqual([
      [
        'delete_note',
        'error',
        'Class relaxed from delete to edit: clients will auto-approve what they used to ask about.',
      ],
      [
        'add_note',
        'warning',
        'Class relaxed from edit to read: clients will auto-approve what they used to ask about.',
      ],
    ]);
    const approved = await check(dir, '--approved');
    expect(approved.code, approved.stdout).toBe(0);
  });
});

describe('22.12: the audited command changed so that a tool is no longer listed', () => {
  it('is start-removed, an error naming the start change, never its values', async () => {
    const { dir, spec } = await repository();
    const fewer = { ...spec, tools: spec.tools.filter((t) => t.name !== 'delete_note') };
    await writeFile(join(dir, 'read-mode.json'), JSON.stringify(fewer));
    await writeConfig(dir, {
      ...BASE_CONFIG,
      servers: {
        notes: { ...served('read-mode.json'), env: { NOTES_TOKEN: 'tok-head-0002' } },
      },
    });
    await update(dir);
    const run = await check(dir);
    expect(run.code, run.stdout).toBe(1);
    const findings = json(run).findings.map((f) => [f.rule, f.tool, f.severity, f.message]);
    expect(findings).toEqual([
      [
        'start-removed',
        'delete_note',
        'error',
        'Gone in a PR that changes how this server is started (see start-changed); it was delete (closed). The command clients run may still serve it.',
      ],
      [
        'start-changed',
        undefined,
        'notice',
        'The config auditor.yml changes how this server is started against auditor.yml at HEAD (args, env NOTES_TOKEN): a tool it no longer lists is start-removed, an error, since the command clients run may still serve it.',
      ],
    ]);
    const text = await runCli(['check', '--config', 'auditor.yml', '--base-ref', 'HEAD'], {
      cwd: dir,
    });
    expect(text.stdout).toContain('start-removed');
    expect(text.stdout + text.stderr).not.toContain('tok-head-0002');
    const approved = await check(dir, '--approved');
    expect(approved.code, approved.stdout).toBe(0);
  });
});
