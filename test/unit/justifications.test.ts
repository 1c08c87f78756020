// The justifications command and check's justification rules, through the CLI in this process
// (servers in memory); the file's edits through the core's writer. test/e2e/justifications.test.ts
// runs the built CLI and action once each.
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadJsonText } from '../../src/core/jsontext.js';
import { writeJustifications, type WantedHints } from '../../src/core/justifications.js';
import { runCliInMemory } from '../support/in-memory.js';
import { notesSpec, specServer, tempDir, withAnnotations } from '../support/cli.js';
import { JUSTIFICATIONS, NOTES_HINTS, justificationsText } from '../support/justifications-file.js';

/** A justifications file's JSON, as the tests read it. */
interface File {
  $schema: string;
  schema_version: number;
  tools: Record<
    string,
    { annotations: Record<string, unknown>; justifications: Record<string, string> }
  >;
}
const parsed = (text: string): File => JSON.parse(text) as File;

const without = (tool: string) =>
  Object.fromEntries(Object.entries(NOTES_HINTS).filter(([name]) => name !== tool));

const wanted = (hints = NOTES_HINTS): WantedHints =>
  new Map(
    Object.entries(hints).map(([tool, [readOnlyHint, openWorldHint, destructiveHint]]) => [
      tool,
      { readOnlyHint, openWorldHint, destructiveHint },
    ]),
  );

describe('writeJustifications', () => {
  it('keeps every byte of a file already in step, and a second run changes nothing', async () => {
    await loadJsonText();
    const text = justificationsText().replace(/\n/g, '\r\n').replace(/ {2}/g, '\t');
    expect(writeJustifications(text, wanted(), 'j.json').text).toBe(text);
  });

  it('writes the invisible and C1 characters of tool names as escapes, new file or edited', async () => {
    await loadJsonText();
    const hidden = ['csi\u009b31m', 'bidi\u202egnp', 'zero\u200bwidth'];
    const hints = { readOnlyHint: true, openWorldHint: false, destructiveHint: false };
    const names = new Map(hidden.map((tool) => [tool, hints]));
    const fresh = writeJustifications(undefined, names, 'j.json').text;
    const edited = writeJustifications(justificationsText(), names, 'j.json').text;
    for (const text of [fresh, edited]) {
      expect(text).not.toMatch(/[\u007f-\u009f\u200b\u202e]/);
      expect(text).toContain('"csi\\u009b31m"');
      expect(Object.keys(parsed(text).tools)).toEqual(expect.arrayContaining(hidden));
    }
  });

  it('adds a missing entry in the file’s own layout, the rest untouched', async () => {
    await loadJsonText();
    const two = without('list_notes');
    const text = justificationsText(two);
    const done = writeJustifications(text, wanted(), 'j.json');
    expect(done.added).toEqual(['list_notes']);
    expect(parsed(done.text).tools.list_notes).toEqual({
      annotations: { readOnlyHint: true, openWorldHint: false, destructiveHint: false },
      justifications: {
        read_only_justification: 'TODO: write why readOnlyHint is true for this tool.',
        open_world_justification: 'TODO: write why openWorldHint is false for this tool.',
        destructive_justification: 'TODO: write why destructiveHint is false for this tool.',
      },
    });
    expect(done.text.startsWith(text.slice(0, text.lastIndexOf('}', text.length - 5)))).toBe(true);
    expect(writeJustifications(done.text, wanted(), 'j.json').text).toBe(done.text);
  });

  it('a changed hint: set, and its written justification marked to rewrite with its text kept', async () => {
    await loadJsonText();
    const text = justificationsText();
    const done = writeJustifications(
      text,
      wanted({ ...NOTES_HINTS, list_notes: [false, false, false] }),
      'j.json',
    );
    expect(done.rewrite).toEqual([
      { tool: 'list_notes', hint: 'readOnlyHint', key: 'read_only_justification', value: false },
    ]);
    const entry = parsed(done.text).tools.list_notes;
    expect(entry?.annotations.readOnlyHint).toBe(false);
    expect(entry?.justifications).toEqual({
      read_only_justification:
        'TODO: readOnlyHint is false now: rewrite this justification, which said: list_notes: read_only_justification written by a person.',
      open_world_justification: 'list_notes: open_world_justification written by a person.',
      destructive_justification: 'list_notes: destructive_justification written by a person.',
    });
    // Only the two values changed.
    expect(done.text.split('\n').filter((l, i) => l !== text.split('\n')[i])).toHaveLength(2);
  });

  it('an undeclared hint is null, and an entry of a tool gone is kept', async () => {
    await loadJsonText();
    const done = writeJustifications(
      justificationsText({ ...NOTES_HINTS, old_tool: [true, false, false] }),
      wanted({ ...NOTES_HINTS, list_notes: [true, null, false] }),
      'j.json',
    );
    expect(done.orphaned).toEqual(['old_tool']);
    const tools = parsed(done.text).tools;
    expect(tools.list_notes?.annotations.openWorldHint).toBeNull();
    expect(tools.old_tool).toBeDefined();
  });
});

/** A folder with the notes server's class list recorded, and its server's command line. */
async function recorded(spec?: Awaited<ReturnType<typeof notesSpec>>) {
  const dir = await tempDir();
  const server = await specServer(dir, 'spec.json', spec ?? (await notesSpec()));
  const update = await runCliInMemory(['update', '--', ...server], { cwd: dir });
  expect(update.code, update.stderr).toBe(0);
  return { dir, server };
}

describe('justifications (CLI, in process)', () => {
  it('prints the file the class list makes, writing nothing', async () => {
    const { dir } = await recorded();
    const run = await runCliInMemory(['justifications'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    const file = parsed(run.stdout);
    expect(file.$schema).toBe(
      'https://developers.openai.com/apps-sdk/schemas/tool-hint-justifications.v1.json',
    );
    expect(file.schema_version).toBe(1);
    expect(Object.keys(file.tools)).toEqual(['add_note', 'delete_note', 'list_notes']);
    await expect(readFile(join(dir, JUSTIFICATIONS), 'utf8')).rejects.toThrow(/ENOENT/);
  });

  it('--write creates it, a second run changes nothing, a person’s text is kept', async () => {
    const { dir } = await recorded();
    const write = () =>
      runCliInMemory(['justifications', '--write', JUSTIFICATIONS, '--format', 'text'], {
        cwd: dir,
      });
    expect((await write()).stdout).toMatch(
      /^Wrote tool-hint-justifications.json \(3 entries added/,
    );
    const path = join(dir, JUSTIFICATIONS);
    const edited = (await readFile(path, 'utf8')).replace(
      'TODO: write why readOnlyHint is true for this tool.',
      'It only reads notes.',
    );
    await writeFile(path, edited);
    expect((await write()).stdout).toMatch(/^Unchanged: /);
    expect(await readFile(path, 'utf8')).toBe(edited);
  });

  it('refuses a file that does not parse, and leaves it as it was', async () => {
    const { dir } = await recorded();
    await writeFile(join(dir, JUSTIFICATIONS), '{"tools": {');
    const run = await runCliInMemory(['justifications', '--write', JUSTIFICATIONS], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('is not valid JSON at line 1');
    expect(await readFile(join(dir, JUSTIFICATIONS), 'utf8')).toBe('{"tools": {');
  });

  it('refuses to write through a link that leads out of the repository', async () => {
    const { dir } = await recorded();
    const outside = await tempDir();
    await mkdir(join(dir, 'out'));
    await symlink(outside, join(dir, 'out', 'link'));
    const run = await runCliInMemory(['justifications', '--write', 'out/link/j.json'], {
      cwd: dir,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Refusing to write the hint justifications file');
  });
});

describe('check with the openai policy and a justifications file (CLI, in process)', () => {
  it('a hint flipped since the file was written: justification-stale, naming what to rewrite', async () => {
    const { dir } = await recorded();
    await writeFile(join(dir, JUSTIFICATIONS), justificationsText());
    const head = await specServer(
      dir,
      'head.json',
      withAnnotations(await notesSpec(), 'list_notes', { readOnlyHint: false }),
    );
    const run = await runCliInMemory(['check', '--policy', 'openai', '--', ...head], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('justification-stale');
    expect(run.stdout).toContain(
      'Rewrite read_only_justification in tool-hint-justifications.json',
    );
  });

  it('the file in step with the server: no justification finding', async () => {
    const { dir, server } = await recorded();
    await writeFile(join(dir, JUSTIFICATIONS), justificationsText());
    const run = await runCliInMemory(
      ['check', '--policy', 'openai', '--format', 'json', '--', ...server],
      {
        cwd: dir,
      },
    );
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).not.toContain('"justification-');
  });

  it('placeholders, a missing entry and an orphan, each its own rule', async () => {
    const { dir, server } = await recorded();
    const rest = without('add_note');
    await writeFile(
      join(dir, JUSTIFICATIONS),
      justificationsText({ ...rest, old_tool: [true, false, false] }, (tool, key) =>
        tool === 'list_notes' && key === 'read_only_justification' ? 'TODO: later' : 'Written.',
      ),
    );
    const run = await runCliInMemory(
      ['check', '--policy', 'openai', '--format', 'json', '--', ...server],
      {
        cwd: dir,
      },
    );
    const findings = JSON.parse(run.stdout) as {
      servers: { findings: { rule: string; tool?: string }[] }[];
      findings: { rule: string; tool?: string }[];
    };
    const all = [...findings.findings, ...(findings.servers[0]?.findings ?? [])]
      .filter((f) => f.rule.startsWith('justification-'))
      .map((f) => `${f.rule} ${f.tool}`)
      .sort();
    expect(all).toEqual([
      'justification-missing add_note',
      'justification-orphaned old_tool',
      'justification-placeholder list_notes',
    ]);
  });

  it('without the openai policy the file is not read', async () => {
    const { dir, server } = await recorded();
    await writeFile(join(dir, JUSTIFICATIONS), '{ broken');
    const run = await runCliInMemory(['check', '--policy', 'claude', '--', ...server], {
      cwd: dir,
    });
    expect(run.code, run.stderr).toBe(0);
  });

  it('a file the config names that is not there: justification-missing', async () => {
    const { dir, server } = await recorded();
    const run = await runCliInMemory(
      [
        'check',
        '--policy',
        'openai',
        '--justifications',
        'app/j.json',
        '--format',
        'json',
        '--',
        ...server,
      ],
      { cwd: dir },
    );
    expect(run.stdout).toContain(
      'The config names the hint justifications file app/j.json, but there is none.',
    );
  });
});
