// The audit engine in-process, against the example server: where its findings are filed, and
// what it shows of the servers' settings.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeTarget, runAudit } from '../src/audit.js';
import { parseClassList, serializeClassList } from '../src/classlist.js';
import { renderComment } from '../src/comment.js';
import { readConfigFile, resolveSettings } from '../src/config.js';
import { renderJson, renderMarkdown, renderText } from '../src/render.js';
import { renderSarif } from '../src/sarif.js';
import { EXAMPLE, tempDir, writeConfig } from './support/cli.js';

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
    ).toBe('https://***@h/mcp?api_key=***');
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
    await runAudit(settings, { mode: 'update' });
    // A third server, "gone", was recorded once and has left the config since.
    const list = parseClassList(await readFile(classList, 'utf8'), classList);
    for (const [key, record] of [...list.tools])
      if (record.server === 'notes')
        list.tools.set(key.replace('mcp__notes__', 'mcp__gone__'), { ...record, server: 'gone' });
    const text = serializeClassList(list);
    await writeFile(classList, text);

    const report = await runAudit(settings, { mode: 'check', today: '2026-01-01' });
    const isGone = (f: { message: string }) => f.message.includes('server "gone"');
    for (const server of report.servers) expect(server.findings.filter(isGone)).toEqual([]);
    const [gone] = report.findings.filter(isGone);
    expect(gone).toMatchObject({ rule: 'unrecorded-change', severity: 'warning' });
    expect(gone?.fix).toContain('--server-name gone');
    expect(report.result).toBe('passed');

    expect(renderText(report)).toContain('records 3 tools of server "gone"');
    expect(renderText(report)).toContain('--server-name gone');
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
      updateCommand: 'npx mcp-annotation-auditor update',
    };
    for (const server of report.servers) {
      const body = renderComment(server, context);
      expect(body).toContain('server &quot;gone&quot;');
      expect(body).toContain('❌');
    }
  });
});
