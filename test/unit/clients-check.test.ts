// `check` judges every committed client config it finds, through the registry: a test-only
// client (test/support/fake-client.ts) is registered for the file, as a real row would be.
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../src/clients/client.js';
import { CLIENTS } from '../../src/clients/registry.js';
import type { Report } from '../../src/report/report.js';
import { parseReport } from '../../src/report/reportfile.js';
import { runCliInMemory } from '../support/in-memory.js';
import { EXAMPLE, exampleRepo, tempDir } from '../support/cli.js';
import { fakeClient } from '../support/fake-client.js';

const registry = CLIENTS as Client[];
beforeAll(() => {
  registry.push(fakeClient());
});
afterAll(() => {
  registry.splice(
    registry.findIndex((c) => c.id === 'fake'),
    1,
  );
});

const check = (dir: string, format = 'json') =>
  runCliInMemory(['check', '--format', format, '--server-name', 'notes', '--', 'node', EXAMPLE], {
    cwd: dir,
  });

interface Json {
  tools: {
    name: string;
    clients?: Record<string, { decision: string; file?: string; line?: number; rule?: string }>;
  }[];
  findings: {
    rule: string;
    severity: string;
    tool?: string;
    message: string;
    location?: { file: string; line: number };
  }[];
}

describe('check judges each committed client config', () => {
  it('fails on a rule that lets a delete tool run unasked, naming the client, file and line', async () => {
    const dir = await exampleRepo(
      '.fake/rules.json',
      '{\n  "allow": [\n    "notes.delete_note"\n  ]\n}\n',
    );
    const run = await check(dir);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as Json;
    const found = report.findings.find((f) => f.rule === 'rule-allows-delete');
    expect(found).toMatchObject({
      severity: 'error',
      tool: 'delete_note',
      message:
        'delete tool notes.delete_note: in Fake CLI, "notes.delete_note" in .fake/rules.json line 3 lets it run without asking; the class list maps it to deny.',
      location: { file: '.fake/rules.json', line: 3 },
    });
    const tool = report.tools.find((t) => t.name === 'delete_note');
    expect(tool?.clients).toEqual({
      fake: { decision: 'allow', rule: 'notes.delete_note', file: '.fake/rules.json', line: 3 },
    });
    // The JSON schema reads it back, and refuses a client id of another shape.
    const back = parseReport(run.stdout, 'report.json') as Report;
    expect(back.servers[0]?.tools[2]?.clients).toEqual(tool?.clients);
    const odd = run.stdout.replace('"fake": {', '"Fake CLI": {');
    expect(() => parseReport(odd, 'report.json')).toThrow(/clients/);
    const text = await check(dir, 'text');
    expect(text.stdout).toContain('FAKE CLI');
    expect(text.stdout).toContain('allow (notes.delete_note, .fake/rules.json:3)');
  });

  it('passes with the rules the class list maps to, and judges nothing where no file is', async () => {
    const passing = await exampleRepo(
      '.fake/rules.json',
      '{"deny": ["notes.delete_note"], "allow": ["notes.list_notes"]}',
    );
    expect((await check(passing)).code).toBe(0);
    const none = JSON.parse((await check(await exampleRepo())).stdout) as Json;
    expect(none.tools.every((t) => t.clients === undefined)).toBe(true);
    expect(none.findings.filter((f) => f.rule.startsWith('rule-'))).toEqual([]);
  });

  it('refuses a file that does not parse, a link out of the repository, and a huge file', async () => {
    const bad = await check(await exampleRepo('.fake/rules.json', '{ nope'));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Fake CLI: The fake file .fake/rules.json is not JSON.');
    const outside = await tempDir();
    await writeFile(join(outside, 'rules.json'), '{"allow": []}');
    const linked = await exampleRepo();
    await mkdir(join(linked, '.fake'));
    await symlink(join(outside, 'rules.json'), join(linked, '.fake/rules.json'));
    const out = await check(linked);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain("Refusing to read Fake CLI's file .fake/rules.json");
    expect(out.stderr).toContain('outside the repository');
    const huge = await check(
      await exampleRepo('.fake/rules.json', `{"x": "${'a'.repeat(1024 * 1024)}"}`),
    );
    expect(huge.code).toBe(2);
    expect(huge.stderr).toContain(
      "Fake CLI's file .fake/rules.json is 1048585 bytes; the check reads files of up to 1048576 bytes.",
    );
  });
});

describe('the registry rows judged by check', () => {
  it('Codex CLI: an approve on a delete tool fails, naming Codex CLI, the file and the line', async () => {
    const dir = await exampleRepo();
    await mkdir(join(dir, '.codex'));
    await writeFile(
      join(dir, '.codex/config.toml'),
      '[mcp_servers.notes]\ncommand = "node"\n\n[mcp_servers.notes.tools.delete_note]\napproval_mode = "approve"\n',
    );
    const run = await check(dir);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as Json;
    const found = report.findings.find((f) => f.rule === 'rule-allows-delete');
    expect(found?.message).toContain('in Codex CLI');
    expect(found?.location).toEqual({ file: '.codex/config.toml', line: 5 });
    expect(report.tools.find((t) => t.name === 'delete_note')?.clients?.codex?.decision).toBe(
      'allow',
    );
  });
});
