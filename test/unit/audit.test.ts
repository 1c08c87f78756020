// The audit engine in-process, against the example server served in memory: where its findings are filed, and
// what it shows of the servers' settings.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeTarget, runAudit, type AuditOptions } from '../../src/audit.js';
import { auditListings } from '../../src/core/listings.js';
import { parseClassList, serializeClassList } from '../../src/core/classlist.js';
import { renderComment } from '../../src/report/comment.js';
import { resolveSettings, type Overrides } from '../../src/config/settings.js';
import { readConfigFile } from '../../src/config/file.js';
import type { Finding } from '../../src/core/findings.js';
import { renderJson } from '../../src/report/json.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { renderText } from '../../src/report/text.js';
import { renderSarif } from '../../src/report/sarif.js';
import {
  EXAMPLE,
  notesSpec,
  SERVERS,
  specServer,
  tempDir,
  writeConfig,
  type SpecTool,
} from '../support/cli.js';
import type { Report } from '../../src/report/report.js';
import { folderRoot } from '../support/roots.js';
import { reportOf } from '../support/audit-run.js';
import { inMemory } from '../support/in-memory.js';

/** A delete tool that takes no arguments, as list_notes does: a rename by schema can pair them. */
const PURGE_NOTES: SpecTool = {
  name: 'purge_notes',
  annotations: {
    title: 'Purge notes',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
};

describe('describeTarget', () => {
  it('shows a URL without its secret parts, and a command line as it is', () => {
    expect(
      describeTarget({
        era: 'legacy',
        target: {
          kind: 'http',
          url: 'https://alice:pw123456@h/mcp?api_key=SK_LIVE_SECRET',
          headers: { Authorization: 'Bearer tok_123456' },
        },
      }),
    ).toBe('https://***@h/***');
    expect(
      describeTarget({
        era: 'legacy',
        target: { kind: 'stdio', spawn: { command: 'node', args: ['s.js'], env: {} } },
      }),
    ).toBe('node s.js');
  });
});

describe('a server the class list records but the config no longer has', () => {
  it('is a finding of the run, not of the first audited server, and every output shows it', async () => {
    const dir = await tempDir();
    const classList = join(dir, 'classes.json');
    const config = await writeConfig(dir, {
      classList,
      rules: { 'unrecorded-change': 'warning' },
      servers: {
        notes: { command: 'node', args: [EXAMPLE] },
        other: { command: 'node', args: [EXAMPLE] },
      },
    });
    const settings = resolveSettings(await readConfigFile(config, true), config, {});
    await reportOf(
      runAudit(settings, { mode: 'update', writeRoot: folderRoot(classList), connect: inMemory }),
    );
    // A third server, "gone", was recorded once and has left the config since.
    const list = parseClassList(await readFile(classList, 'utf8'), classList);
    for (const [key, record] of [...list.tools])
      if (record.server === 'notes')
        list.tools.set(key.replace('mcp__notes__', 'mcp__gone__'), { ...record, server: 'gone' });
    const text = serializeClassList(list);
    await writeFile(classList, text);

    const report = await reportOf(
      runAudit(settings, { mode: 'check', today: '2026-01-01', connect: inMemory }),
    );
    const isGone = (f: { message: string }) => f.message.includes('server "gone"');
    for (const server of report.servers) expect(server.findings.filter(isGone)).toEqual([]);
    const [gone] = report.findings.filter(isGone);
    expect(gone).toMatchObject({ rule: 'unrecorded-change', severity: 'warning' });
    expect(gone?.fix).toContain('give it back its name (its key in the config file)');
    expect(report.result).toBe('passed');

    expect(renderText(report)).toContain('records 3 tools of server "gone"');
    expect(renderText(report)).toContain('give it back its name (its key in the config file)');
    expect(renderMarkdown(report)).toContain('records 3 tools of server &quot;gone&quot;');
    const json = JSON.parse(renderJson(report)) as {
      findings: { server: string | null; message: string }[];
      servers: { counts: { warning: number } }[];
    };
    expect(json.findings.filter(isGone).map((f) => f.server)).toEqual([null]);
    expect(json.servers.map((s) => s.counts.warning)).toEqual([0, 0]);
    const sarif = JSON.parse(renderSarif(report, text, 'classes.json', '0')) as {
      runs: { results: { ruleId: string; message: { text: string } }[] }[];
    };
    expect(sarif.runs[0]?.results.filter((r) => isGone({ message: r.message.text }))).toHaveLength(
      1,
    );
    const context = {
      failOn: 'warning' as const,
      classList,
      runFindings: report.findings,
      updateCommand: 'npx mcp-annotation-auditor@0.1.0 update',
    };
    for (const server of report.servers) {
      const body = renderComment(server, context);
      expect(body).toContain('server &quot;gone&quot;');
      expect(body).toContain('❌');
    }
  });
});

/** One stdio server audited in-process: the source modules, not the committed bundle. */
async function audit(
  mode: AuditOptions['mode'],
  command: string[],
  flags: Overrides & { classList: string },
  options: Omit<AuditOptions, 'mode'> & { severities?: Record<string, string> } = {},
) {
  const settings = resolveSettings(undefined, 'auditor.yml', { command, ...flags });
  if (options.severities) Object.assign(settings.severities, options.severities);
  const writeRoot = folderRoot(flags.classList);
  return reportOf(
    runAudit(settings, { today: '2026-01-01', writeRoot, connect: inMemory, ...options, mode }),
  );
}

/** Every finding of a run as rule:tool, sorted. */
function rulesOf(report: Report, severity?: string): string[] {
  return report.servers
    .flatMap((s) => s.findings)
    .filter((f) => severity === undefined || f.severity === severity)
    .map((f) => `${f.rule}:${f.tool ?? ''}`)
    .sort();
}

async function readTools(path: string) {
  return (
    JSON.parse(await readFile(path, 'utf8')) as {
      tools: Record<string, { class: string; title: string; schema: string; reason?: string }>;
    }
  ).tools;
}

/** Writes a reason into one class-list entry, as a reviewer does. */
async function giveReason(path: string, key: string, reason: string): Promise<void> {
  const data = JSON.parse(await readFile(path, 'utf8')) as {
    tools: Record<string, { reason?: string }>;
  };
  const entry = data.tools[key];
  if (!entry) throw new Error(`${key} is not in the class list`);
  entry.reason = reason;
  await writeFile(path, `${JSON.stringify(data, null, 2)}\n`);
}

describe('--protocol-era both audits each era', () => {
  // Legacy clients get the notes tools; modern clients get add_note without its hints, a title of
  // list_notes of their own (same class), and purge_notes, which legacy clients never see.
  async function eraServer(dir: string): Promise<string[]> {
    const { tools } = await notesSpec();
    const untitled: SpecTool = {
      name: 'untitled',
      annotations: {
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    };
    const modern = tools.map((t) =>
      t.name === 'add_note'
        ? { ...t, annotations: { title: 'Add note' } }
        : t.name === 'list_notes'
          ? { ...t, annotations: { ...t.annotations, title: 'All notes' } }
          : t,
    );
    const purge: SpecTool = PURGE_NOTES;
    const path = join(dir, 'eras.json');
    await writeFile(
      path,
      JSON.stringify({
        name: 'notes',
        legacy: [...tools, untitled],
        modern: [...modern, purge, untitled],
      }),
    );
    return ['node', join(SERVERS, 'era-spec.mjs'), path];
  }

  it('check fails on what only modern clients are served, as --protocol-era modern alone does', async () => {
    const dir = await tempDir();
    const classList = join(dir, 'classes.json');
    const server = await eraServer(dir);
    // Reviewed from the legacy listing alone.
    await audit('update', server, { classList, era: 'legacy' });
    const modern = await audit('check', server, { classList, era: 'modern' });
    const both = await audit('check', server, { classList, era: 'both' });
    expect(modern.result).toBe('failed');
    expect(both.result).toBe('failed');
    expect(rulesOf(modern, 'error')).toEqual([
      'hint-dropped:add_note',
      'policy-claude:add_note',
      'policy-claude:untitled',
      'policy-openai:add_note',
      'unrecorded-change:add_note',
      'unrecorded-change:list_notes',
      'unrecorded-change:purge_notes',
    ]);
    // Both: the same, but for list_notes, whose legacy version (the same class) is the one
    // compared; its new title is an era-mismatch.
    expect(rulesOf(both, 'error')).toEqual([
      'hint-dropped:add_note',
      'policy-claude:add_note',
      'policy-claude:untitled',
      'policy-openai:add_note',
      'unrecorded-change:add_note',
      'unrecorded-change:purge_notes',
    ]);
    expect(rulesOf(both, 'warning')).toEqual([
      'era-mismatch:add_note',
      'era-mismatch:list_notes',
      'era-mismatch:purge_notes',
      'reach-opened:add_note',
    ]);
    const findings = both.servers[0]?.findings ?? [];
    const of = (rule: string, tool: string): Finding[] =>
      findings.filter((f) => f.rule === rule && f.tool === tool);
    // What one era alone has says so; what both have is reported once, as it is.
    expect(of('policy-openai', 'add_note')[0]?.message).toMatch(/^Modern era only: /);
    expect(of('policy-claude', 'untitled').map((f) => f.message)).toEqual([
      'The Claude connector directory requires a title (annotations.title).',
    ]);
    expect(of('unrecorded-change', 'purge_notes')[0]?.message).toBe(
      'The live tool is served but not in the class list.',
    );
    expect(of('era-mismatch', 'purge_notes')[0]?.message).toBe(
      'Listed in the modern era but not in the legacy era.',
    );
  });

  it('update records the union: the riskier version where the eras disagree, else the legacy one', async () => {
    const dir = await tempDir();
    const classList = join(dir, 'classes.json');
    const server = await eraServer(dir);
    const update = await audit('update', server, { classList, era: 'both' });
    expect(update.classListWritten).toBe(true);
    const tools = await readTools(classList);
    expect(Object.keys(tools)).toEqual([
      'mcp__notes__add_note',
      'mcp__notes__delete_note',
      'mcp__notes__list_notes',
      'mcp__notes__purge_notes',
      'mcp__notes__untitled',
    ]);
    // add_note is edit to legacy clients and delete (no hints) to modern ones.
    expect(tools['mcp__notes__add_note']?.class).toBe('delete');
    expect(tools['mcp__notes__purge_notes']?.class).toBe('delete');
    // Read in both eras: the legacy version, with its title.
    expect(tools['mcp__notes__list_notes']).toMatchObject({ class: 'read', title: 'List notes' });
    const check = await audit('check', server, { classList, era: 'both' });
    expect(rulesOf(check).filter((r) => r.startsWith('unrecorded-change'))).toEqual([]);
    expect(check.servers[0]?.tools.map((t) => t.name).sort()).toEqual([
      'add_note',
      'delete_note',
      'list_notes',
      'purge_notes',
      'untitled',
    ]);
  });
});

describe('auditListings', () => {
  const good = {
    name: 'ok',
    annotations: { title: 'OK', readOnlyHint: true, destructiveHint: false, openWorldHint: false },
  };

  it('a tool malformed in one era is not "listed in one era but not the other"', () => {
    const result = auditListings(
      [
        { era: 'legacy', rawTools: [{ name: 'x', annotations: { readOnlyHint: 'yes' } }, good] },
        { era: 'modern', rawTools: [{ name: 'x', annotations: { readOnlyHint: true } }, good] },
      ],
      [],
    );
    expect(result.findings.map((f) => `${f.rule}:${f.tool}`)).toEqual(['malformed-tool:x']);
    expect(result.findings[0]?.message).toMatch(/^Legacy era only: The tool fails validation/);
    expect(result.malformedNames).toEqual(['x']);
    // Its entry stays as reviewed: neither version is recorded.
    expect(result.tools.map((t) => t.name)).toEqual(['ok']);
  });

  it('a title moved between eras with the same text says where it moved', () => {
    const result = auditListings(
      [
        { era: 'legacy', rawTools: [good] },
        {
          era: 'modern',
          rawTools: [{ ...good, title: 'OK', annotations: { ...good.annotations } }],
        },
      ],
      [],
    );
    expect(result.findings.map((f) => f.message)).toEqual([
      'Annotations differ between eras (legacy -> modern): title "OK" moved from annotations.title to Tool.title.',
    ]);
  });
});

describe('the class list across renames and schema changes, in-process', () => {
  const noArgs = { properties: {} };

  it('a rename that raises the class does not carry the reason over, and says so', async () => {
    const dir = await tempDir();
    const classList = join(dir, 'classes.json');
    const spec = await notesSpec();
    const listNotes = spec.tools.find((t) => t.name === 'list_notes') as SpecTool;
    const v1 = await specServer(dir, 'v1.json', {
      ...spec,
      tools: spec.tools.map((t) => (t === listNotes ? { ...t, inputSchema: noArgs } : t)),
    });
    await audit('update', v1, { classList });
    await giveReason(
      classList,
      'mcp__notes__list_notes',
      'Read-only; safe to allow without asking.',
    );
    const base = await readFile(classList, 'utf8');
    // list_notes is gone and purge_notes, as argument-less, is new: a rename by schema.
    const v2 = await specServer(dir, 'v2.json', {
      ...spec,
      tools: spec.tools.map((t) => (t === listNotes ? { ...PURGE_NOTES, inputSchema: noArgs } : t)),
    });
    const drift = await audit('check', v2, { classList });
    expect(
      drift.servers[0]?.findings.find((f) => f.rule === 'unrecorded-change')?.message,
    ).toContain('its reason is not carried over because the class rose from read to delete');
    await audit('update', v2, { classList });
    const tools = await readTools(classList);
    expect(tools['mcp__notes__list_notes']).toBeUndefined();
    expect(tools['mcp__notes__purge_notes']).toMatchObject({ class: 'delete' });
    expect(tools['mcp__notes__purge_notes']?.reason).toBeUndefined();
    const check = await audit('check', v2, { classList }, { base: { text: base, label: 'base' } });
    const renamed = check.servers[0]?.findings.find((f) => f.rule === 'tool-renamed');
    expect(renamed?.message).toBe(
      'Renamed from list_notes (same input schema); its reason is not carried over because the class rose from read to delete: review the tool and give it a new reason.',
    );
    expect(rulesOf(check)).toContain('class-escalated:purge_notes');
  });

  it('a schema change is a drift notice, no PR change; update records it and a later rename keeps its reason', async () => {
    const dir = await tempDir();
    const classList = join(dir, 'classes.json');
    const spec = await notesSpec();
    const v1 = await specServer(dir, 'v1.json', spec);
    await audit('update', v1, { classList });
    const reason = 'Adds one note; reviewed.';
    await giveReason(classList, 'mcp__notes__add_note', reason);
    const base = await readFile(classList, 'utf8');
    const tagged = (t: SpecTool): SpecTool =>
      t.name === 'add_note'
        ? {
            ...t,
            inputSchema: {
              ...t.inputSchema,
              properties: {
                ...(t.inputSchema?.properties as object),
                tag: { type: 'string' },
              },
            },
          }
        : t;
    const v2 = await specServer(dir, 'v2.json', { ...spec, tools: spec.tools.map(tagged) });

    const check = await audit('check', v2, { classList });
    expect(check.result).toBe('passed');
    const findings = check.servers[0]?.findings ?? [];
    expect(findings).toMatchObject([
      {
        rule: 'unrecorded-change',
        severity: 'notice',
        tool: 'add_note',
        message: expect.stringContaining('input schema differs') as string,
      },
    ]);
    expect(findings[0]?.fix).toContain('later rename');
    // What the PR changes (base against HEAD) has no schema-only entry: no comment is created for it.
    expect(check.servers[0]?.changes).toEqual([]);
    const withBase = await audit(
      'check',
      v2,
      { classList },
      { base: { text: base, label: 'base' } },
    );
    // Against a base that pins the schema, the PR's change of it is shown for review (a notice).
    expect(withBase.servers[0]?.changes).toMatchObject([
      { tool: 'add_note', hints: [], inputSchemaChanged: { paths: ['properties.tag'] } },
    ]);
    expect(rulesOf(withBase)).toEqual(['schema-changed:add_note', 'unrecorded-change:add_note']);
    // An override of the rule does not raise it; turning the rule off drops it.
    const raised = await audit(
      'check',
      v2,
      { classList },
      { severities: { 'unrecorded-change': 'warning' } },
    );
    expect(rulesOf(raised, 'notice')).toEqual(['unrecorded-change:add_note']);
    const off = await audit(
      'check',
      v2,
      { classList },
      { severities: { 'unrecorded-change': 'off' } },
    );
    expect(rulesOf(off)).toEqual([]);

    const hash = (await readTools(classList))['mcp__notes__add_note']?.schema;
    await audit('update', v2, { classList });
    expect((await readTools(classList))['mcp__notes__add_note']?.schema).not.toBe(hash);
    expect(rulesOf(await audit('check', v2, { classList }))).toEqual([]);
    // Renamed later, the recorded (new) schema pairs it: a rename, and its reason follows.
    const v3 = await specServer(dir, 'v3.json', {
      ...spec,
      tools: spec.tools
        .map(tagged)
        .map((t) => (t.name === 'add_note' ? { ...t, name: 'create_note' } : t)),
    });
    await audit('update', v3, { classList });
    expect((await readTools(classList))['mcp__notes__create_note']?.reason).toBe(reason);
  });

  it('a server that renames itself: the finding names the name the base records', async () => {
    const dir = await tempDir();
    const classList = join(dir, 'classes.json');
    const spec = await notesSpec();
    await audit('update', await specServer(dir, 'v1.json', spec), { classList });
    const base = await readFile(classList, 'utf8');
    const renamed = await specServer(dir, 'v2.json', { ...spec, name: 'notes2' });
    const check = await audit(
      'check',
      renamed,
      { classList },
      { base: { text: base, label: 'base' } },
    );
    const finding = check.servers[0]?.findings.find((f) => f.rule === 'tool-renamed' && !f.tool);
    expect(finding?.message).toBe(
      'The server now calls itself "notes2"; the base class list records its tools under "notes". They are compared as one server.',
    );
  });
});
