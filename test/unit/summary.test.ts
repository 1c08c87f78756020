// The job summary: GitHub drops a step's whole summary past 1 MiB, so the report is rendered to
// fit, and what would still pass the limit is cut at a character boundary.
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendSummary, SUMMARY_LIMIT } from '../../src/action/summary.js';
import type { Report, ServerReport } from '../../src/report/report.js';
import { classifyTool } from '../../src/core/classify.js';
import { finding } from '../../src/core/findings.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { tempDir } from '../support/cli.js';

/** A server with `tools` tools, each with a finding; titles of `char` (multi-byte if asked). */
function server(name: string, tools: number, char = 'T'): ServerReport {
  const list = Array.from({ length: tools }, (_, i) => ({
    ...classifyTool({
      name: `tool_${i}`,
      title: char.repeat(40),
      inputSchema: { type: 'object' },
      annotations: { readOnlyHint: true },
    }),
    fullName: `mcp__${name}__tool_${i}`,
  }));
  return {
    server: name,
    target: 'node server.js',
    era: 'legacy',
    tools: list,
    findings: list.map((t) =>
      finding('policy-openai', t.name, `${char.repeat(60)} is missing in ${t.name}`),
    ),
    changes: [],
    stdoutNoise: [],
  };
}

function report(servers: ServerReport[], configFindings = 0): Report {
  return {
    mode: 'check',
    result: 'failed',
    failOn: 'error',
    classList: 'mcp-tool-classes.json',
    servers,
    findings: Array.from({ length: configFindings }, (_, i) =>
      finding(
        'stale-waiver',
        `tool_${i}`,
        `The waiver of hint-dropped for tool_${i} matches no finding.`,
      ),
    ),
  };
}

const BUDGET = SUMMARY_LIMIT - 64 * 1024;
const bytes = (text: string) => Buffer.byteLength(text, 'utf8');
/** Every table row is whole: the cut comes between rows. */
function rowsWhole(markdown: string): boolean {
  return markdown
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .every((line) => line.endsWith('|'));
}

describe('renderMarkdown with a budget', () => {
  it('is the full report when it fits, however it is spread', () => {
    for (const fits of [
      report([server('notes', 3)], 1),
      report(
        Array.from({ length: 380 }, (_, i) => server(`s${i}`, 2)),
        3,
      ),
      report([server('big', 2_000)]),
    ]) {
      const whole = renderMarkdown(fits);
      expect(bytes(whole)).toBeLessThanOrEqual(BUDGET);
      expect(renderMarkdown(fits, BUDGET)).toBe(whole);
    }
  });

  it('keeps a large server within the budget, counting bytes, not characters', () => {
    const text = renderMarkdown(report([server('big', 5_000, '€')]), BUDGET);
    expect(bytes(text)).toBeLessThanOrEqual(BUDGET);
    expect(bytes(text)).toBeGreaterThan(BUDGET / 2);
    expect(text).toMatch(/_…and \d+ more findings, left out/);
    expect(text).toMatch(/_…and \d+ more tools, left out/);
    expect(rowsWhole(text)).toBe(true);
  });

  it('stops listing servers when the budget is spent, and says how many are left', () => {
    const text = renderMarkdown(
      report(Array.from({ length: 4_000 }, (_, i) => server(`s${i}`, 1))),
      BUDGET,
    );
    expect(bytes(text)).toBeLessThanOrEqual(BUDGET);
    expect(bytes(text)).toBeGreaterThan(BUDGET * 0.9);
    expect(text).toMatch(/_…and \d+ more servers, left out/);
    expect(rowsWhole(text)).toBe(true);
  });

  it('gives the config findings the room the servers leave', () => {
    const only = renderMarkdown(report([], 12_000), BUDGET);
    expect(bytes(only)).toBeLessThanOrEqual(BUDGET);
    expect(bytes(only)).toBeGreaterThan(BUDGET * 0.9);
    expect(only).toMatch(/_…and \d+ more findings, left out/);
    const both = renderMarkdown(report([server('big', 5_000)], 5_000), BUDGET);
    expect(bytes(both)).toBeLessThanOrEqual(BUDGET);
    expect(both.indexOf('**Config**')).toBeGreaterThan(both.indexOf('**Tools**'));
  });

  it('has no limit without a budget (--format markdown)', () => {
    const text = renderMarkdown(report([server('big', 5_000)]));
    expect(text).toContain('| tool\\_4999 |');
    expect(text).not.toContain('left out');
  });
});

describe('the stale hint justifications in the summary', () => {
  // A tool name is the server's (PR code): it must not close the code span or mention anyone.
  const name = 'list`**@org/team**<!--';
  const stale = (): ServerReport => {
    const s = server('notes', 2);
    s.findings.push(
      finding('justification-stale', name, 'j.json declares readOnlyHint: true.', {
        hints: ['readOnlyHint'],
      }),
    );
    return s;
  };
  const line = '- **`list **@org/team**<!--`**: rewrite `read_only_justification`.';

  it('lists each beside the changes, the tool name in a code span, whole or cut to fit', () => {
    const whole = renderMarkdown(report([stale()]));
    expect(whole).toContain(`**OpenAI hint justifications now false: rewrite them**\n\n${line}\n`);
    expect(whole.indexOf(line)).toBeLessThan(whole.indexOf('**Findings**'));
    const cut = renderMarkdown(report([stale(), server('big', 5_000)]), BUDGET);
    expect(cut).toMatch(/_…and \d+ more findings, left out/);
    expect(cut).toContain(line);
  });
});

describe('appendSummary', () => {
  let saved: string | undefined;
  let file: string;
  beforeEach(async () => {
    saved = process.env.GITHUB_STEP_SUMMARY;
    file = join(await tempDir(), 'summary.md');
    process.env.GITHUB_STEP_SUMMARY = file;
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.GITHUB_STEP_SUMMARY;
    else process.env.GITHUB_STEP_SUMMARY = saved;
  });

  it('appends what fits as it is, with a final newline', async () => {
    expect(appendSummary('# one')).toBe(true);
    expect(appendSummary('two\n')).toBe(true);
    expect(await readFile(file, 'utf8')).toBe('# one\ntwo\n');
  });

  it('cuts what would pass 1 MiB at a character boundary, and says so', async () => {
    await writeFile(file, 'x'.repeat(SUMMARY_LIMIT - 1_000));
    // Three-byte characters: a cut at a byte count would split one.
    expect(appendSummary('€'.repeat(2_000))).toBe(true);
    const text = await readFile(file, 'utf8');
    expect((await stat(file)).size).toBeLessThanOrEqual(SUMMARY_LIMIT);
    expect(text).not.toContain('\uFFFD');
    expect(text).toContain('€€€');
    expect(text.endsWith("_Cut to fit GitHub's 1 MiB limit on a step's summary._\n")).toBe(true);
  });

  it('writes nothing once the summary is full, and false without a summary file', async () => {
    await writeFile(file, 'x'.repeat(SUMMARY_LIMIT - 10));
    appendSummary('more than ten bytes of text');
    expect((await stat(file)).size).toBe(SUMMARY_LIMIT - 10);
    delete process.env.GITHUB_STEP_SUMMARY;
    expect(appendSummary('anything')).toBe(false);
  });
});
