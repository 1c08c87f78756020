// Ways a PR's config or class list relaxes the check without dropping a hint: client rules and
// settings changed in the config, a delete tool recorded as edit, the audited command changed so
// the delete tool is no longer listed. The CLI's engine in this process, servers and the base
// commit's git in memory; test/e2e/relax-cli.test.ts runs one of each end to end.
import { mkdir, writeFile } from 'node:fs/promises';
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

/** A config entry that serves the spec in `dir/<file>`, with a secret in its environment. */
function served(file = 'spec.json'): Record<string, unknown> {
  return {
    command: 'node',
    args: [join(SERVERS, 'configurable.mjs'), file],
    env: { NOTES_TOKEN: 'tok-base-0001' },
  };
}

const BASE_CONFIG = { policies: ['claude'], servers: { notes: served() } };

/** A repository whose one commit holds the config, the spec and its class list: the base. */
async function repository(): Promise<MemoryRepository & { spec: Spec }> {
  const repo = await memoryRepository();
  const spec = await notesSpec();
  await writeFile(join(repo.dir, 'spec.json'), JSON.stringify(spec));
  await writeConfig(repo.dir, BASE_CONFIG);
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

async function update(repo: MemoryRepository): Promise<void> {
  const run = await repo.cli(['update', '--config', 'auditor.yml']);
  expect(run.code, run.stderr).toBe(0);
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
  it('clientRules delete: allow is config-relaxed, so an allow rule for the delete tool fails', async () => {
    const repo = await repository();
    const { dir } = repo;
    await allowAll(dir);
    await writeConfig(dir, { ...BASE_CONFIG, clientRules: { delete: 'allow', edit: 'allow' } });
    const run = await check(repo);
    expect(run.code, run.stdout).toBe(1);
    expect(json(run).findings.some((f) => f.rule === 'rule-allows-delete')).toBe(false);
    expect(relaxations(run)).toEqual([
      'clientRules.delete is "allow" (was unset), clientRules.edit is "allow" (was unset): the Claude Code rules each class may have differ from the base.',
    ]);
  });

  it('a per-tool allow in clientRules is config-relaxed too', async () => {
    const repo = await repository();
    const { dir } = repo;
    await allowAll(dir);
    await writeConfig(dir, {
      ...BASE_CONFIG,
      clientRules: { tools: { mcp__notes__delete_note: 'allow', mcp__notes__add_note: 'allow' } },
    });
    const run = await check(repo);
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
    const run = await check(repo);
    expect(run.code, run.stdout).toBe(1);
    expect(json(run).findings.some((f) => f.rule === 'rule-allows-delete')).toBe(false);
    expect(relaxations(run)).toEqual([
      'settings is "elsewhere/settings.json" (was unset): the check judges other Claude Code settings files than the base.',
    ]);
    const approved = await check(repo, '--approved');
    expect(approved.code, approved.stdout).toBe(0);
  });
});

describe('22.11: a delete tool recorded as edit', () => {
  it('is a class-relaxed error (approvable); edit to read stays a warning', async () => {
    const repo = await repository();
    const { dir, spec } = repo;
    await allowAll(dir);
    // Every hint still declared: destructiveHint true -> false is no dropped hint.
    const relaxed = withAnnotations(
      withAnnotations(spec, 'delete_note', { destructiveHint: false }),
      'add_note',
      { readOnlyHint: true },
    );
    await writeFile(join(dir, 'spec.json'), JSON.stringify(relaxed));
    await update(repo);
    const run = await check(repo);
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
    const approved = await check(repo, '--approved');
    expect(approved.code, approved.stdout).toBe(0);
  });

  it('the PR config turning class-relaxed to warning is config-relaxed', async () => {
    const repo = await repository();
    const { dir, spec } = repo;
    await writeFile(
      join(dir, 'spec.json'),
      JSON.stringify(withAnnotations(spec, 'delete_note', { destructiveHint: false })),
    );
    await writeConfig(dir, { ...BASE_CONFIG, rules: { 'class-relaxed': 'warning' } });
    await update(repo);
    const run = await check(repo);
    expect(run.code, run.stdout).toBe(1);
    expect(relaxations(run)).toEqual(['rule class-relaxed is turned down to warning (was error).']);
  });
});

describe('22.12: the audited command changed so that a tool is no longer listed', () => {
  it('is start-removed, an error naming the start change, never its values', async () => {
    const repo = await repository();
    const { dir, spec } = repo;
    const fewer = { ...spec, tools: spec.tools.filter((t) => t.name !== 'delete_note') };
    await writeFile(join(dir, 'read-mode.json'), JSON.stringify(fewer));
    await writeConfig(dir, {
      ...BASE_CONFIG,
      servers: {
        notes: { ...served('read-mode.json'), env: { NOTES_TOKEN: 'tok-head-0002' } },
      },
    });
    await update(repo);
    const run = await check(repo);
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
    const text = await repo.cli(['check', '--config', 'auditor.yml', '--base-ref', 'HEAD']);
    expect(text.stdout).toContain('start-removed');
    expect(text.stdout + text.stderr).not.toContain('tok-head-0002');
    const approved = await check(repo, '--approved');
    expect(approved.code, approved.stdout).toBe(0);
  });

  it('under a renamed server key, the base server is server-removed and the notice says renamed', async () => {
    const repo = await repository();
    const { dir, spec } = repo;
    const fewer = { ...spec, tools: spec.tools.filter((t) => t.name !== 'delete_note') };
    await writeFile(join(dir, 'read-mode.json'), JSON.stringify(fewer));
    await writeConfig(dir, { ...BASE_CONFIG, servers: { notes2: served('read-mode.json') } });
    const pruned = await repo.cli(['update', '--prune', '--config', 'auditor.yml']);
    expect(pruned.code, pruned.stderr).toBe(0);
    const run = await check(repo);
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
    await update(repo);
    const run = await check(repo);
    expect(run.code, run.stdout).toBe(0);
    expect(json(run).findings.map((f) => [f.rule, f.severity])).toEqual([
      ['tool-removed', 'notice'],
    ]);
  });
});
