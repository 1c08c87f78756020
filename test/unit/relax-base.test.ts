// Ways a PR's config or class list relaxes the check without dropping a hint: client rules and
// settings changed in the config, a delete tool recorded as edit, the audited command changed so
// the delete tool is no longer listed. The CLI's engine in this process, servers and the base
// commit's git in memory; test/e2e/relax-cli.test.ts runs one of each end to end.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, notesSpec, withAnnotations, writeConfig, type Run } from '../support/cli.js';
import { BASE_CONFIG, served } from '../support/base-fixtures.js';
import { memoryRepository, type MemoryRepository } from '../support/repo-in-memory.js';

type Spec = Awaited<ReturnType<typeof notesSpec>>;

/** A repository whose one commit holds the config, the spec and its class list: the base. */
async function repository(): Promise<MemoryRepository & { spec: Spec }> {
  const repo = await memoryRepository();
  const spec = await notesSpec();
  await writeFile(join(repo.dir, 'spec.json'), JSON.stringify(spec));
  await writeConfig(repo.dir, BASE_CONFIG);
  await repo.update();
  await repo.git.commitWorkingTree();
  return { ...repo, spec };
}

/** A Claude Code settings file that allows every tool of the notes server. */
async function allowAll(dir: string, path = '.claude/settings.json'): Promise<void> {
  await mkdir(join(dir, path, '..'), { recursive: true });
  await writeFile(join(dir, path), JSON.stringify({ permissions: { allow: ['mcp__notes'] } }));
}

function relaxations(run: Run): string[] {
  return json(run)
    .findings.filter((f) => f.rule === 'config-relaxed')
    .map((f) => f.message.replace(/^The config .* relaxes the check against .*?: /, ''));
}

describe('22.9: client rules and settings changed in the PR config', () => {
  it('a per-tool allow in clientRules is config-relaxed too', async () => {
    const repo = await repository();
    const { dir } = repo;
    await allowAll(dir);
    await writeConfig(dir, {
      ...BASE_CONFIG,
      clientRules: { tools: { mcp__notes__delete_note: 'allow', mcp__notes__add_note: 'allow' } },
    });
    const run = await repo.checkAtHead();
    expect(run.code, run.stdout).toBe(1);
    expect(relaxations(run)).toEqual([
      'clientRules.tools.mcp__notes__add_note is "allow" (was unset), clientRules.tools.mcp__notes__delete_note is "allow" (was unset): the Claude Code rules each class may have differ from the base.',
    ]);
  });

  it('settings pointing the check at another file is config-relaxed', async () => {
    const repo = await repository();
    const { dir } = repo;
    await allowAll(dir);
    await mkdir(join(dir, 'elsewhere'));
    await writeFile(join(dir, 'elsewhere/settings.json'), '{"permissions": {}}');
    await writeConfig(dir, { ...BASE_CONFIG, settings: 'elsewhere/settings.json' });
    const run = await repo.checkAtHead();
    expect(run.code, run.stdout).toBe(1);
    expect(json(run).findings.some((f) => f.rule === 'rule-allows-delete')).toBe(false);
    expect(relaxations(run)).toEqual([
      'settings is "elsewhere/settings.json" (was unset): the check judges other Claude Code settings files than the base.',
    ]);
    const approved = await repo.checkAtHead('--approved');
    expect(approved.code, approved.stdout).toBe(0);
  });
});

describe('22.11: a delete tool recorded as edit', () => {
  it('the PR config turning class-relaxed to warning is config-relaxed', async () => {
    const repo = await repository();
    const { dir, spec } = repo;
    await writeFile(
      join(dir, 'spec.json'),
      JSON.stringify(withAnnotations(spec, 'delete_note', { destructiveHint: false })),
    );
    await writeConfig(dir, { ...BASE_CONFIG, rules: { 'class-relaxed': 'warning' } });
    await repo.update();
    const run = await repo.checkAtHead();
    expect(run.code, run.stdout).toBe(1);
    expect(relaxations(run)).toEqual(['rule class-relaxed is turned down to warning (was error).']);
  });
});

describe('22.12: the audited command changed so that a tool is no longer listed', () => {
  it('under a renamed server key, the base server is server-removed and the notice says renamed', async () => {
    const repo = await repository();
    const { dir, spec } = repo;
    const fewer = { ...spec, tools: spec.tools.filter((t) => t.name !== 'delete_note') };
    await writeFile(join(dir, 'read-mode.json'), JSON.stringify(fewer));
    await writeConfig(dir, { ...BASE_CONFIG, servers: { notes2: served('read-mode.json') } });
    const pruned = await repo.cli(['update', '--prune', '--config', 'auditor.yml']);
    expect(pruned.code, pruned.stderr).toBe(0);
    const run = await repo.checkAtHead();
    expect(run.code, run.stdout).toBe(1);
    const findings = json(run).findings;
    expect(findings.filter((f) => f.severity === 'error').map((f) => f.rule)).toEqual([
      'server-removed',
    ]);
    expect(findings.find((f) => f.rule === 'start-changed')?.message).toContain(
      '(renamed from "notes", args)',
    );
  });

  it('a tool removed with the start configuration unchanged stays a tool-removed notice', async () => {
    const repo = await repository();
    const { dir, spec } = repo;
    const fewer = { ...spec, tools: spec.tools.filter((t) => t.name !== 'delete_note') };
    await writeFile(join(dir, 'spec.json'), JSON.stringify(fewer));
    await repo.update();
    const run = await repo.checkAtHead();
    expect(run.code, run.stdout).toBe(0);
    expect(json(run).findings.map((f) => [f.rule, f.severity])).toEqual([
      ['tool-removed', 'notice'],
    ]);
  });
});
