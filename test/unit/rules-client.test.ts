// `rules --client <id>`: each registry client's form of the class list's rules, printed or merged
// into its file (a test-only client, test/support/fake-client.ts, is registered for the file).
import { copyFile, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../src/clients/client.js';
import { CLIENTS } from '../../src/clients/registry.js';
import { runCliInMemory } from '../support/in-memory.js';
import { ROOT, tempDir } from '../support/cli.js';
import { fakeClient } from '../support/fake-client.js';

const registry = CLIENTS as Client[];
beforeAll(() => {
  registry.push(fakeClient({ notes: ['Fake CLI reads .fake/rules.json.'] }));
});
afterAll(() => {
  registry.splice(
    registry.findIndex((c) => c.id === 'fake'),
    1,
  );
});

async function repository(): Promise<string> {
  const dir = await tempDir();
  await copyFile(join(ROOT, 'mcp-tool-classes.json'), join(dir, 'mcp-tool-classes.json'));
  return dir;
}
const rules = (dir: string, args: string[]) => runCliInMemory(['rules', ...args], { cwd: dir });

describe('rules --client', () => {
  it("prints the client's form, and its notes", async () => {
    const run = await rules(await repository(), ['--client', 'fake', '--format', 'text']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      '# Fake CLI: .fake/rules.json\n{\n  "allow": [\n    "notes.list_notes"\n  ],\n  "deny": [\n    "notes.delete_note"\n  ]\n}\n  Note: Fake CLI reads .fake/rules.json.\n',
    );
  });

  it('writes into the file keeping the rest, and a second run changes nothing', async () => {
    const dir = await repository();
    await mkdir(join(dir, '.fake'));
    await writeFile(join(dir, '.fake/rules.json'), '{"keep": 1, "allow": ["notes.delete_note"]}');
    const first = await rules(dir, [
      '--client',
      'fake',
      '--write',
      '.fake/rules.json',
      '--format',
      'text',
    ]);
    expect(first.stdout).toContain(
      'Wrote .fake/rules.json (Fake CLI: the rules of 3 tools; everything else kept).',
    );
    const text = await readFile(join(dir, '.fake/rules.json'), 'utf8');
    expect(JSON.parse(text)).toEqual({
      keep: 1,
      allow: ['notes.list_notes'],
      deny: ['notes.delete_note'],
    });
    const second = await rules(dir, ['--client', 'fake', '--write', '.fake/rules.json']);
    expect(JSON.parse(second.stdout)).toEqual({
      clients: [
        {
          client: 'fake',
          file: '.fake/rules.json',
          written: false,
          notes: ['Fake CLI reads .fake/rules.json.'],
        },
      ],
    });
    expect(await readFile(join(dir, '.fake/rules.json'), 'utf8')).toBe(text);
  });

  it('refuses a file that does not parse, a link out of the repository, an unknown client', async () => {
    const dir = await repository();
    await mkdir(join(dir, '.fake'));
    await writeFile(join(dir, '.fake/rules.json'), '{ nope');
    const bad = await rules(dir, ['--client', 'fake', '--write', '.fake/rules.json']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('The fake file .fake/rules.json is not JSON.');
    expect(await readFile(join(dir, '.fake/rules.json'), 'utf8')).toBe('{ nope');
    const outside = await tempDir();
    await writeFile(join(outside, 'x.json'), '{}');
    await symlink(join(outside, 'x.json'), join(dir, 'link.json'));
    const out = await rules(dir, ['--client', 'fake', '--write', 'link.json']);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain("Refusing to write Fake CLI's file link.json");
    expect(await readFile(join(outside, 'x.json'), 'utf8')).toBe('{}');
    const unknown = await rules(dir, ['--client', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown client "nope".');
    expect(unknown.stderr).toContain('claude-code, codex');
  });

  it("prints every client the config file's clients: lists; --write then names one", async () => {
    const dir = await repository();
    await writeFile(join(dir, 'auditor.yml'), 'clients: [claude-code, fake]\n');
    const run = await rules(dir, ['--config', 'auditor.yml']);
    const printed = JSON.parse(run.stdout) as {
      clients: { client: string; file: string; text: string }[];
    };
    expect(printed.clients.map((c) => [c.client, c.file])).toEqual([
      ['claude-code', '.claude/settings.json'],
      ['fake', '.fake/rules.json'],
    ]);
    expect(printed.clients[0]?.text).toContain('"mcp__notes__delete_note"');
    const both = await rules(dir, ['--config', 'auditor.yml', '--write', 'x.json']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain(
      'names one file, and rules was asked for 2 clients (claude-code, fake)',
    );
  });

  it("writes Codex CLI's form through its row", async () => {
    const dir = await repository();
    const run = await rules(dir, [
      '--client',
      'codex',
      '--write',
      '.codex/config.toml',
      '--format',
      'text',
    ]);
    expect(run.code).toBe(0);
    const toml = await readFile(join(dir, '.codex/config.toml'), 'utf8');
    expect(toml).toMatch(/\[mcp_servers\.notes\.tools\.delete_note\]\napproval_mode = "prompt"/);
  });
});
