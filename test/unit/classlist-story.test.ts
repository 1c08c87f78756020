// The class list's life through the CLI's commands (update, check, waivers, a base, renames),
// in one process with the servers in memory: every variant of the rules, in milliseconds.
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { json, notesSpec, specServer, tempDir, type SpecTool } from '../support/cli.js';
import { runCliInMemory as runCli } from '../support/in-memory.js';

type Spec = Awaited<ReturnType<typeof notesSpec>>;
interface ClassListFile {
  tools: Record<string, { class: string; reason?: string }>;
}

async function readList(path: string): Promise<ClassListFile> {
  return JSON.parse(await readFile(path, 'utf8')) as ClassListFile;
}

function variant(
  spec: Spec,
  name: string,
  change: (tool: SpecTool) => SpecTool | SpecTool[],
): Spec {
  return {
    ...spec,
    tools: spec.tools.flatMap((t) => (t.name === name ? change(structuredClone(t)) : [t])),
  };
}

/** `check --format json --policy claude`: the claude profile alone, as the story needs. */
function checkJson(args: string[]): ReturnType<typeof runCli> {
  return runCli(['check', '--format', 'json', '--policy', 'claude', ...args]);
}

function rules(run: Awaited<ReturnType<typeof runCli>>): string[] {
  return json(run)
    .findings.filter((f) => !f.waived)
    .map((f) => `${f.rule}:${f.tool ?? ''}`)
    .sort();
}

describe('the class list story, the CLI in memory', () => {
  let dir: string;
  let list: string;
  let original: string[];
  let dropped: string[];
  let spec: Spec;

  beforeAll(async () => {
    dir = await tempDir();
    list = join(dir, 'mcp-tool-classes.json');
    spec = await notesSpec();
    original = await specServer(dir, 'v1.json', spec);
    dropped = await specServer(
      dir,
      'v2.json',
      variant(spec, 'delete_note', (t) => {
        delete t.annotations?.destructiveHint;
        return t;
      }),
    );
  });

  /** The arguments that check the dropped hint against `base` with the waivers in `config`. */
  const droppedWithWaivers = (config: string, base: string) => [
    '--config',
    config,
    '--class-list',
    list,
    '--base',
    base,
    '--',
    ...dropped,
  ];

  it('update writes the list; check then passes with exit 0', async () => {
    const update = await runCli(['update', '--class-list', list, '--', ...original], {
      cwd: dirname(list),
    });
    expect(update.code, update.stderr).toBe(0);
    const text = await readFile(list, 'utf8');
    expect(text.endsWith('}\n')).toBe(true);
    expect(text).not.toContain('\r');
    expect(Object.keys((JSON.parse(text) as ClassListFile).tools)).toEqual([
      'mcp__notes__add_note',
      'mcp__notes__delete_note',
      'mcp__notes__list_notes',
    ]);
    const check = await checkJson(['--class-list', list, '--', ...original]);
    expect(check.code, check.stdout).toBe(0);
    expect(json(check).result).toBe('passed');
  });

  it('two updates are byte-identical', async () => {
    const first = await readFile(list);
    expect(
      (await runCli(['update', '--class-list', list, '--', ...original], { cwd: dirname(list) }))
        .code,
    ).toBe(0);
    expect((await readFile(list)).equals(first)).toBe(true);
  });

  // The claude profile alone: dropping destructiveHint also breaks the openai profile.
  it('dropping destructiveHint (class unchanged) gives hint-dropped and unrecorded-change, exit 1', async () => {
    const check = await checkJson(['--class-list', list, '--', ...dropped]);
    expect(check.code).toBe(1);
    expect(rules(check)).toEqual(['hint-dropped:delete_note', 'unrecorded-change:delete_note']);
    const report = json(check);
    expect(report.tools.find((t) => t.name === 'delete_note')?.class).toBe('delete');
    const drift = report.findings.find((f) => f.rule === 'unrecorded-change');
    // Named from its serverInfo: the printed command pins that name.
    expect(drift?.fix).toContain(`update --server-name notes --class-list ${list} -- node`);
  });

  it('after update, check with the old file as base still fails on hint-dropped', async () => {
    const base = join(dir, 'base.json');
    await copyFile(list, base);
    expect(
      (await runCli(['update', '--class-list', list, '--', ...dropped], { cwd: dirname(list) }))
        .code,
    ).toBe(0);
    const check = await checkJson(['--class-list', list, '--base', base, '--', ...dropped]);
    expect(check.code).toBe(1);
    expect(rules(check)).toEqual(['hint-dropped:delete_note']);
    expect(json(check).changes).toMatchObject([
      {
        kind: 'changed',
        tool: 'delete_note',
        hints: [{ hint: 'destructiveHint', before: true, after: 'absent' }],
      },
    ]);
  });

  it('a waiver with a reason turns it to pass, and the waiver is listed', async () => {
    const config = join(dir, 'auditor.yml');
    await writeFile(
      config,
      'waivers:\n  - rule: hint-dropped\n    tool: delete_note\n    reason: destructive is the default and the class is unchanged\n',
    );
    const base = join(dir, 'base.json');
    const check = await checkJson(droppedWithWaivers(config, base));
    expect(check.code, check.stdout).toBe(0);
    const waived = json(check).findings.filter((f) => f.waived);
    expect(waived).toMatchObject([
      {
        rule: 'hint-dropped',
        tool: 'delete_note',
        waived: { reason: 'destructive is the default and the class is unchanged' },
      },
    ]);
    const text = await runCli(['check', '--policy', 'claude', ...droppedWithWaivers(config, base)]);
    expect(text.stdout).toMatch(/error \(waived: [^)]+\)\s+hint-dropped\s+delete_note/);
  });

  it('an expired waiver no longer applies and is a stale-waiver finding', async () => {
    const config = join(dir, 'expired.yml');
    await writeFile(
      config,
      'waivers:\n  - rule: hint-dropped\n    tool: delete_note\n    reason: old\n    expires: 2020-01-01\n  - rule: tool-name\n    tool: nothing\n    reason: unmatched\n',
    );
    const check = await checkJson(droppedWithWaivers(config, join(dir, 'base.json')));
    expect(check.code).toBe(1);
    expect(rules(check)).toEqual([
      'hint-dropped:delete_note',
      'stale-waiver:delete_note',
      'stale-waiver:nothing',
    ]);
  });

  it('add_note turned read-only gives class-relaxed', async () => {
    const relaxed = await specServer(
      dir,
      'v3.json',
      variant(spec, 'add_note', (t) => ({
        ...t,
        annotations: { ...t.annotations, readOnlyHint: true },
      })),
    );
    const check = await checkJson(['--class-list', list, '--', ...relaxed]);
    const report = json(check);
    expect(report.findings).toContainEqual(
      expect.objectContaining({ rule: 'class-relaxed', tool: 'add_note', severity: 'warning' }),
    );
    expect(report.changes.find((c) => c.tool === 'add_note')).toMatchObject({
      before: { class: 'edit' },
      after: { class: 'read' },
    });
    // --approved turns the approvable finding into a listed notice.
    const approved = json(await checkJson(['--approved', '--class-list', list, '--', ...relaxed]));
    expect(approved.findings).toContainEqual(
      expect.objectContaining({ rule: 'class-relaxed', severity: 'notice', approved: true }),
    );
  });

  it('a renamed tool keeps its reason, and check reports the rename', async () => {
    const withReason = await readList(list);
    const entry = withReason.tools['mcp__notes__delete_note'];
    if (!entry) throw new Error('delete_note is not in the class list');
    entry.reason = 'Deletes one note; reviewed by the security team.';
    await writeFile(list, `${JSON.stringify(withReason, null, 2)}\n`);
    const renamedSpec = variant(spec, 'delete_note', (t) => ({ ...t, name: 'remove_note' }));
    const renamed = await specServer(dir, 'v4.json', renamedSpec);
    const base = join(dir, 'before-rename.json');
    await copyFile(list, base);
    const update = await runCli(['update', '--class-list', list, '--', ...renamed], {
      cwd: dirname(list),
    });
    expect(update.code).toBe(0);
    const after = await readList(list);
    expect(after.tools['mcp__notes__delete_note']).toBeUndefined();
    expect(after.tools['mcp__notes__remove_note']?.reason).toBe(
      'Deletes one note; reviewed by the security team.',
    );
    const check = json(await checkJson(['--class-list', list, '--base', base, '--', ...renamed]));
    expect(check.findings).toContainEqual(
      expect.objectContaining({ rule: 'tool-renamed', tool: 'remove_note' }),
    );
    expect(check.changes).toContainEqual(
      expect.objectContaining({ kind: 'renamed', renamedFrom: 'mcp__notes__delete_note' }),
    );
  });

  it('a server that renames itself cannot hide a dropped hint or a relaxed class', async () => {
    const own = await tempDir();
    const ownList = join(own, 'classes.json');
    const base = join(own, 'base.json');
    expect(
      (
        await runCli(['update', '--class-list', ownList, '--', ...original], {
          cwd: dirname(ownList),
        })
      ).code,
    ).toBe(0);
    await copyFile(ownList, base);
    const renamed = await specServer(own, 'renamed.json', {
      ...variant(spec, 'delete_note', (t) => ({
        ...t,
        annotations: { title: 'Delete note', readOnlyHint: true },
      })),
      name: 'notes2',
    });
    const drift = await checkJson(['--class-list', ownList, '--base', base, '--', ...renamed]);
    expect(drift.code).toBe(1);
    expect(rules(drift)).toEqual(
      expect.arrayContaining([
        'class-relaxed:delete_note',
        'hint-dropped:delete_note',
        'unrecorded-change:',
      ]),
    );
    expect(
      json(drift).findings.some(
        (f) =>
          f.rule === 'unrecorded-change' &&
          f.message.includes(
            'records 3 tools of server "notes", but no audited server has that name',
          ),
      ),
    ).toBe(true);
    // Recording the new name keeps the old server's reviewed entries, and says so; --prune
    // removes them, listing each. The base still catches the drop.
    const kept = await runCli(['update', '--class-list', ownList, '--', ...renamed], {
      cwd: dirname(ownList),
    });
    expect(kept.code, kept.stderr).toBe(0);
    expect(kept.stdout.trim().split('\n').at(-1)).toBe(
      `UPDATED: ${ownList} (3 tools; 3 entries of "notes", not audited, kept (--prune removes them)). Review the diff and commit it.`,
    );
    expect(Object.keys((await readList(ownList)).tools).sort()).toEqual([
      'mcp__notes2__add_note',
      'mcp__notes2__delete_note',
      'mcp__notes2__list_notes',
      'mcp__notes__add_note',
      'mcp__notes__delete_note',
      'mcp__notes__list_notes',
    ]);
    const pruned = await runCli(['update', '--prune', '--class-list', ownList, '--', ...renamed], {
      cwd: dirname(ownList),
    });
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(pruned.stdout).toContain(
      'Changes (servers not audited, removed with --prune):\n- mcp__notes__add_note: removed, was edit (closed)\n- mcp__notes__delete_note: removed, was delete (closed)\n- mcp__notes__list_notes: removed, was read (closed)\n',
    );
    expect(pruned.stdout.trim().split('\n').at(-1)).toBe(
      `UPDATED: ${ownList} (3 tools; 3 entries removed). Review the diff and commit it.`,
    );
    expect(
      Object.keys((await readList(ownList)).tools).every((k) => k.startsWith('mcp__notes2__')),
    ).toBe(true);
    const after = await checkJson(['--class-list', ownList, '--base', base, '--', ...renamed]);
    expect(after.code).toBe(1);
    expect(rules(after)).toEqual([
      'class-relaxed:delete_note',
      'hint-dropped:delete_note',
      'reach-opened:delete_note',
      'tool-renamed:',
    ]);
  });

  it('a class list with a syntax error gives exit 2, names the line, and is left unchanged', async () => {
    const broken = join(dir, 'broken.json');
    const text = '{\n  "version": 1,\n  "tools": {\n    "mcp__notes__x": {,\n  }\n}\n';
    await writeFile(broken, text);
    for (const command of ['check', 'update']) {
      const run = await runCli([command, '--class-list', broken, '--', ...original], { cwd: dir });
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/not valid JSON at line 4/);
      expect(run.stderr).not.toMatch(/\n\s+at /);
      expect(await readFile(broken, 'utf8')).toBe(text);
    }
  });

  it('a hand-broken entry is refused with its line', async () => {
    const broken = join(dir, 'bad-entry.json');
    const good = await readList(list);
    const first = Object.values(good.tools)[0];
    if (!first) throw new Error('the class list is empty');
    first.class = 'harmless';
    const text = `${JSON.stringify(good, null, 2)}\n`;
    await writeFile(broken, text);
    const run = await runCli(['update', '--class-list', broken, '--', ...original], {
      cwd: dirname(broken),
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/broken entry "mcp__notes__add_note" \(line 4\): class/);
    expect(await readFile(broken, 'utf8')).toBe(text);
  });
});
