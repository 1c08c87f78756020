// Ways a PR could get a dropped hint or a relaxed class past check, through the built CLI, real
// server processes and a real git repository: one run per feature (a renamed server, a class list
// moved with git mv, the PR's config relaxing the check). Their variants run in memory in
// test/unit/evasion.test.ts.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, notesSpec, runCli, tempDir, withAnnotations, writeConfig } from '../support/cli.js';
import { git } from '../support/git.js';

import { configurable } from '../support/base-fixtures.js';

type Spec = Awaited<ReturnType<typeof notesSpec>>;

function dropDestructive(spec: Spec): Spec {
  return withAnnotations(spec, 'delete_note', { destructiveHint: undefined });
}

/**
 * A repository whose one commit holds `config` (auditor.yml), the spec it serves and the class
 * list update wrote for it: the base a PR is checked against (--base-ref HEAD).
 */
async function repository(config: Record<string, unknown>): Promise<{ dir: string; spec: Spec }> {
  const dir = await tempDir();
  const spec = await notesSpec();
  await writeFile(join(dir, 'spec.json'), JSON.stringify(spec));
  await writeConfig(dir, config);
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

function rules(run: Awaited<ReturnType<typeof runCli>>): string[] {
  return json(run)
    .findings.map((f) => `${f.rule}:${f.tool ?? ''}`)
    .sort();
}

describe('renaming a server in the config', () => {
  it('compares it tool by tool with the base server of the same tools: a dropped hint still fails', async () => {
    const { dir, spec } = await repository({
      policies: ['claude'],
      servers: { notes: configurable() },
    });
    // The PR renames the key, drops the hint, and records both (removing the old entries).
    await writeConfig(dir, { policies: ['claude'], servers: { notes2: configurable() } });
    await writeFile(join(dir, 'spec.json'), JSON.stringify(dropDestructive(spec)));
    const update = await runCli(['update', '--prune', '--config', 'auditor.yml'], { cwd: dir });
    expect(update.code, update.stderr).toBe(0);
    const run = await check(dir);
    expect(run.code, run.stdout).toBe(1);
    expect(rules(run)).toEqual(['hint-dropped:delete_note', 'tool-renamed:']);
    expect(json(run).findings.find((f) => f.rule === 'tool-renamed')?.message).toBe(
      'The base class list records this server\'s tools under "notes", and no server of that name is audited now: "notes2" is taken as "notes" renamed, and compared with it tool by tool.',
    );
  });
});

describe('moving the class list', () => {
  it('in the PR config, with git mv: the base is read where the base config put it, and the move is said', async () => {
    const { dir, spec } = await repository({
      policies: ['claude'],
      servers: { notes: configurable() },
    });
    await git(dir, 'mv', 'mcp-tool-classes.json', 'reviewed.json');
    await writeConfig(dir, {
      classList: 'reviewed.json',
      policies: ['claude'],
      servers: { notes: configurable() },
    });
    await writeFile(join(dir, 'spec.json'), JSON.stringify(dropDestructive(spec)));
    expect((await runCli(['update', '--config', 'auditor.yml'], { cwd: dir })).code).toBe(0);
    const run = await check(dir);
    expect(run.code, run.stdout).toBe(1);
    expect(rules(run)).toEqual(['class-list-moved:', 'hint-dropped:delete_note']);
    expect(json(run).findings.find((f) => f.rule === 'class-list-moved')?.message).toBe(
      'The class list is reviewed.json now, but mcp-tool-classes.json at HEAD: the two are compared.',
    );
  });
});

describe("the PR's own config relaxing the check", () => {
  it('is a config-relaxed error listing each relaxation, even with failOn never; the label approves it', async () => {
    const { dir, spec } = await repository({
      servers: { notes: configurable() },
      policies: ['claude', 'openai'],
    });
    await writeConfig(dir, {
      servers: { notes: configurable() },
      policies: ['claude'],
      failOn: 'never',
      rules: { 'hint-dropped': 'off' },
      waivers: [{ rule: 'class-relaxed', tool: 'delete_note', reason: 'trust me' }],
    });
    await writeFile(join(dir, 'spec.json'), JSON.stringify(dropDestructive(spec)));
    expect((await runCli(['update', '--config', 'auditor.yml'], { cwd: dir })).code).toBe(0);
    const run = await check(dir);
    expect(run.code, run.stdout).toBe(1);
    const relaxed = json(run).findings.filter((f) => f.rule === 'config-relaxed');
    expect(relaxed.map((f) => [f.severity, f.message])).toEqual(
      [
        'rule hint-dropped is turned off (was error)',
        'failOn is never (was error)',
        'policy openai is removed',
        'new waiver of class-relaxed for "delete_note" ("trust me")',
      ].map((what) => [
        'error',
        `The config auditor.yml relaxes the check against auditor.yml at HEAD: ${what}.`,
      ]),
    );
    const approved = await check(dir, '--approved');
    expect(approved.code, approved.stdout).toBe(0);
    expect(json(approved).findings.filter((f) => f.rule === 'config-relaxed')).toHaveLength(4);
  });
});
