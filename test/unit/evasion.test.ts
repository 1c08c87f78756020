// Ways a PR could get a dropped hint or a relaxed class past check, and ways update could lose
// reviewed entries: the CLI's engine in this process, servers and the base commit's git in memory
// (test/support/repo-in-memory.ts). One real-CLI, real-git run per feature stays in
// test/e2e/evasion.test.ts.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  EXAMPLE,
  json,
  notesSpec,
  tempDir,
  withAnnotations,
  withDeleteNoteRenamed,
  writeConfig,
  type Run,
} from '../support/cli.js';
import { runCliInMemory as runCli } from '../support/in-memory.js';
import { memoryRepository, type MemoryRepository } from '../support/repo-in-memory.js';

import { configurable } from '../support/base-fixtures.js';

type Spec = Awaited<ReturnType<typeof notesSpec>>;

function dropDestructive(spec: Spec): Spec {
  return withAnnotations(spec, 'delete_note', { destructiveHint: undefined });
}

/**
 * A repository whose one commit holds `config` (auditor.yml), the spec it serves and the class
 * list update wrote for it: the base a PR is checked against (--base-ref HEAD).
 */
async function repository(
  config: Record<string, unknown>,
): Promise<MemoryRepository & { spec: Spec }> {
  const repo = await memoryRepository();
  const spec = await notesSpec();
  await writeFile(join(repo.dir, 'spec.json'), JSON.stringify(spec));
  await writeConfig(repo.dir, config);
  await repo.update();
  await repo.git.commitWorkingTree();
  return { ...repo, spec };
}

function rules(run: Run): string[] {
  return json(run)
    .findings.map((f) => `${f.rule}:${f.tool ?? ''}`)
    .sort();
}

describe('renaming a server in the config', () => {
  it('a base server that no audited server matches is a server-removed error, approvable', async () => {
    const other = { command: 'node', args: [EXAMPLE, '--read-only'] };
    const repo = await repository({ servers: { notes: configurable(), other } });
    await writeConfig(repo.dir, { servers: { notes: configurable() } });
    expect((await repo.cli(['update', '--prune', '--config', 'auditor.yml'])).code).toBe(0);
    const run = await repo.checkAtHead();
    expect(run.code, run.stdout).toBe(1);
    const removed = json(run).findings.filter((f) => f.rule === 'server-removed');
    expect(removed.map((f) => [f.severity, f.message])).toEqual([
      [
        'error',
        'The base class list records 1 reviewed tool of server "other" (list_notes), but no audited server matches it by name or by its tools: this change removes them from review.',
      ],
    ]);
    const approved = await repo.checkAtHead('--approved');
    expect(approved.code, approved.stdout).toBe(0);
  });
});

describe('moving the class list', () => {
  it('in the PR config, with git mv: the base is read where the base config put it', async () => {
    const repo = await repository({ policies: ['claude'], servers: { notes: configurable() } });
    await repo.git.mv('mcp-tool-classes.json', 'reviewed.json');
    await writeConfig(repo.dir, {
      classList: 'reviewed.json',
      policies: ['claude'],
      servers: { notes: configurable() },
    });
    await writeFile(join(repo.dir, 'spec.json'), JSON.stringify(dropDestructive(repo.spec)));
    expect((await repo.cli(['update', '--config', 'auditor.yml'])).code).toBe(0);
    const run = await repo.checkAtHead();
    expect(run.code, run.stdout).toBe(1);
    expect(rules(run)).toEqual(['class-list-moved:', 'hint-dropped:delete_note']);
  });

  it('with --class-list only: the base is still found at the path the base commit used', async () => {
    const repo = await repository({ policies: ['claude'], servers: { notes: configurable() } });
    await repo.git.mv('mcp-tool-classes.json', 'moved.json');
    await writeFile(join(repo.dir, 'spec.json'), JSON.stringify(dropDestructive(repo.spec)));
    const flags = ['--config', 'auditor.yml', '--class-list', 'moved.json'];
    expect((await repo.cli(['update', ...flags])).code).toBe(0);
    const run = await repo.checkAtHead('--class-list', 'moved.json');
    expect(run.code, run.stdout).toBe(1);
    expect(rules(run)).toEqual(['class-list-moved:', 'hint-dropped:delete_note']);
  });

  it('a base config naming a class list the base commit does not hold is an error', async () => {
    const repo = await memoryRepository();
    await writeFile(join(repo.dir, 'spec.json'), JSON.stringify(await notesSpec()));
    await writeConfig(repo.dir, { classList: 'gone.json', servers: { notes: configurable() } });
    await repo.git.commitWorkingTree();
    await writeConfig(repo.dir, { classList: 'new.json', servers: { notes: configurable() } });
    expect((await repo.cli(['update', '--config', 'auditor.yml'])).code).toBe(0);
    const run = await repo.checkAtHead();
    expect(run.code, run.stdout).toBe(2);
    expect(run.stderr).toContain(
      'The config file auditor.yml at HEAD names the class list gone.json, but HEAD holds no file there nor at new.json.',
    );
  });
});

describe("the PR's own config relaxing the check", () => {
  it('turning config-relaxed itself off in the PR is one more relaxation, still reported', async () => {
    const repo = await repository({ policies: ['claude'], servers: { notes: configurable() } });
    await writeConfig(repo.dir, {
      policies: ['claude'],
      servers: { notes: configurable() },
      rules: { 'config-relaxed': 'off' },
    });
    const run = await repo.checkAtHead();
    expect(run.code, run.stdout).toBe(1);
    expect(json(run).findings.map((f) => f.message)).toEqual([
      'The config auditor.yml relaxes the check against auditor.yml at HEAD: rule config-relaxed is turned off (was error).',
    ]);
  });
});

describe('a rename with a schema change', () => {
  it('is a probable tool-renamed, so the dropped hint is still hint-dropped', async () => {
    const repo = await repository({ policies: ['claude'], servers: { notes: configurable() } });
    await writeFile(join(repo.dir, 'spec.json'), JSON.stringify(withDeleteNoteRenamed(repo.spec)));
    expect((await repo.cli(['update', '--config', 'auditor.yml'])).code).toBe(0);
    const run = await repo.checkAtHead();
    expect(run.code, run.stdout).toBe(1);
    // The schema the model reads changed under the new name too: a notice beside the rename.
    expect(rules(run)).toEqual([
      'hint-dropped:remove_note',
      'schema-changed:remove_note',
      'tool-renamed:remove_note',
    ]);
    expect(json(run).changes).toMatchObject([
      {
        kind: 'renamed',
        tool: 'remove_note',
        renamedFrom: 'mcp__notes__delete_note',
        probable: true,
      },
    ]);
    const text = await repo.cli(['check', '--config', 'auditor.yml', '--base-ref', 'HEAD']);
    expect(text.stdout).toContain(
      '~ remove_note: probably renamed from delete_note; destructiveHint true -> -',
    );
  });
});

describe('update of one server of a class list that records two', () => {
  it('keeps the other server and its reasons, says so, and removes them only with --prune', async () => {
    const dir = await tempDir();
    const list = join(dir, 'classes.json');
    const flags = ['--class-list', list];
    const cwd = { cwd: dir };
    expect((await runCli(['update', ...flags, '--', 'node', EXAMPLE], cwd)).code).toBe(0);
    const other = ['update', ...flags, '--server-name', 'other', '--', 'node', EXAMPLE];
    expect((await runCli([...other, '--read-only'], cwd)).code).toBe(0);
    const data = JSON.parse(await readFile(list, 'utf8')) as {
      tools: Record<string, { reason?: string }>;
    };
    (data.tools['mcp__other__list_notes'] as { reason?: string }).reason = 'reviewed';
    await writeFile(list, `${JSON.stringify(data, null, 2)}\n`);
    const before = await readFile(list, 'utf8');

    const update = await runCli(['update', ...flags, '--', 'node', EXAMPLE], cwd);
    expect(update.code, update.stderr).toBe(0);
    expect(update.stdout.trim().split('\n').at(-1)).toBe(
      `UNCHANGED: ${list} (3 tools; 1 entry of "other", not audited, kept (--prune removes them)). Nothing changed, so there is nothing to commit.`,
    );
    expect(await readFile(list, 'utf8')).toBe(before);
    // check names the prune, not the command that used to delete the entries.
    const checked = await runCli(['check', '--format', 'json', ...flags, '--', 'node', EXAMPLE]);
    expect(json(checked).findings.find((f) => f.rule === 'unrecorded-change')?.fix).toContain(
      `otherwise remove its entries with \`npx mcp-annotation-auditor@0.1.0 update --prune --server-name notes --class-list ${list} -- node ${EXAMPLE}\``,
    );

    const pruned = await runCli(['update', '--prune', ...flags, '--', 'node', EXAMPLE], cwd);
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(pruned.stdout).toContain(
      'Changes (servers not audited, removed with --prune):\n- mcp__other__list_notes: removed, was read (closed)\n',
    );
    expect(pruned.stdout.trim().split('\n').at(-1)).toBe(
      `UPDATED: ${list} (3 tools; 1 entry removed). Review the diff and commit it.`,
    );
    expect(Object.keys((JSON.parse(await readFile(list, 'utf8')) as typeof data).tools)).toEqual([
      'mcp__notes__add_note',
      'mcp__notes__delete_note',
      'mcp__notes__list_notes',
    ]);
  });
});
