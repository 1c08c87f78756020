import { NPX_COMMAND } from '../version.js';
import {
  allFindings,
  type AuditedTool,
  type Mode,
  type Report,
  type ServerReport,
} from '../audit.js';
import type { EraSetting } from '../config/settings.js';
import type { Policy } from '../config/defaults.js';
import { fullToolName, type RecordedHint, type ToolRecord } from '../core/classlist.js';
import type { ToolChange } from '../core/diff.js';
import { codeSpanSafe, markdownSafe, terminalSafe } from '../escape.js';
import type { Finding } from '../core/findings.js';
import { meetsThreshold } from '../core/rules.js';
import { HINT_NAMES, type HintName } from '../core/tools.js';

export type Format = 'text' | 'json' | 'markdown';

export interface Counts {
  tools: number;
  read: number;
  edit: number;
  delete: number;
  error: number;
  warning: number;
  notice: number;
  waived: number;
  changed: number;
}

export function countsOf(tools: AuditedTool[], findings: Finding[], changes: ToolChange[]): Counts {
  // One pass over each list: reports of 10,000 tools are counted several times per run.
  const counts: Counts = {
    tools: tools.length,
    read: 0,
    edit: 0,
    delete: 0,
    error: 0,
    warning: 0,
    notice: 0,
    waived: 0,
    changed: changes.length,
  };
  for (const t of tools) counts[t.class] += 1;
  for (const f of findings) {
    if (f.waived) counts.waived += 1;
    else counts[f.severity] += 1;
  }
  return counts;
}

export function reportCounts(report: Report): Counts {
  return countsOf(
    report.servers.flatMap((s) => s.tools),
    allFindings(report),
    report.servers.flatMap((s) => s.changes),
  );
}

const SHORT_HINT: Record<HintName, string> = {
  readOnlyHint: 'RO',
  destructiveHint: 'DE',
  idempotentHint: 'ID',
  openWorldHint: 'OW',
};

// ---------- JSON: a public interface, documented in the README ----------

function recordJson(r: ToolRecord) {
  return {
    class: r.class,
    reach: r.reach,
    hints: r.hints,
    title: r.title,
    titleSource: r.titleSource,
  };
}

function changeJson(server: string, c: ToolChange) {
  return {
    server,
    kind: c.kind,
    name: c.name,
    tool: c.tool,
    ...(c.renamedFrom ? { renamedFrom: c.renamedFrom } : {}),
    ...(c.probable ? { probable: true } : {}),
    before: c.before ? recordJson(c.before) : null,
    after: c.after ? recordJson(c.after) : null,
    hints: c.hints,
  };
}

function toolJson(server: string, t: AuditedTool) {
  return {
    server,
    name: t.name,
    fullName: t.fullName,
    title: t.title,
    titleSource: t.titleSource,
    class: t.class,
    reach: t.reach,
    openWorld: t.reach === 'open',
    hints: t.hints,
    ...(t.description !== undefined ? { description: t.description } : {}),
    ...(t.claudeCode ? { claudeCode: t.claudeCode } : {}),
  };
}

export function renderJson(report: Report): string {
  const json = {
    schemaVersion: 1,
    mode: report.mode,
    // list judges nothing: "passed" would read as a verdict on findings it does not weigh.
    result: report.mode === 'list' ? 'listed' : report.result,
    failOn: report.failOn,
    classList: report.classList,
    ...(report.policies ? { policies: report.policies } : {}),
    counts: reportCounts(report),
    servers: report.servers.map((s) => ({
      server: s.server,
      ...(s.serverInfo ? { serverInfo: s.serverInfo } : {}),
      target: s.target,
      era: s.era,
      counts: countsOf(s.tools, s.findings, s.changes),
      // Lines on stdout that were not JSON-RPC (a stdio server must log to stderr).
      stdoutNoise: s.stdoutNoise,
    })),
    tools: report.servers.flatMap((s) => s.tools.map((t) => toolJson(s.server, t))),
    findings: [
      ...report.servers.flatMap((s) => s.findings.map((f) => ({ server: s.server, ...f }))),
      ...report.findings.map((f) => ({ server: null, ...f })),
    ],
    changes: report.servers.flatMap((s) => s.changes.map((c) => changeJson(s.server, c))),
    ...(report.classListWritten !== undefined ? { classListWritten: report.classListWritten } : {}),
    ...(report.updateCommand !== undefined ? { updateCommand: report.updateCommand } : {}),
  };
  return `${JSON.stringify(json, null, 2)}\n`;
}

/**
 * An audit that could not run: what its JSON report says, so that a job that comments from it
 * (report-file) can mark the PR's comments failed instead of leaving an old green one.
 */
export interface FailedRun {
  mode: Mode;
  /** The message, already redacted of the run's secrets. */
  error: string;
  policies?: Policy[];
  /** The servers whose comments it concerns, as far as the run got to know them. */
  servers: { server: string; era?: EraSetting }[];
}

/** The JSON report of a run that could not audit: result "error", no tools and no findings. */
export function renderFailedRun(run: FailedRun): string {
  const json = {
    schemaVersion: 1,
    mode: run.mode,
    result: 'error',
    error: run.error,
    ...(run.policies ? { policies: run.policies } : {}),
    counts: countsOf([], [], []),
    servers: run.servers,
    tools: [],
    findings: [],
    changes: [],
  };
  return `${JSON.stringify(json, null, 2)}\n`;
}

// ---------- text: for a person at a terminal ----------

function hintCell(t: AuditedTool, h: HintName): string {
  const s = t.hints[h];
  return s.declared ? (s.value ? 'true' : 'false') : '-';
}

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows
    .map((r) =>
      r
        .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

function recordedHint(v: RecordedHint): string {
  return v === 'absent' ? '-' : String(v);
}

function changeLine(c: ToolChange): string {
  const name = terminalSafe(c.tool, 64);
  switch (c.kind) {
    case 'added':
      return `+ ${name}: added, ${c.after?.class} (${c.after?.reach})`;
    case 'removed':
      return `- ${name}: removed, was ${c.before?.class} (${c.before?.reach})`;
    default: {
      const parts = [];
      if (c.kind === 'renamed')
        parts.push(
          `${c.probable ? 'probably ' : ''}renamed from ${terminalSafe(c.before?.tool ?? '', 64)}`,
        );
      if (c.before?.class !== c.after?.class)
        parts.push(`class ${c.before?.class} -> ${c.after?.class}`);
      if (c.before?.reach !== c.after?.reach)
        parts.push(`reach ${c.before?.reach} -> ${c.after?.reach}`);
      if (c.hints.length)
        parts.push(
          c.hints
            .map((m) => `${m.hint} ${recordedHint(m.before)} -> ${recordedHint(m.after)}`)
            .join(', '),
        );
      if (c.titleChanged)
        parts.push(
          `title ${terminalSafe(JSON.stringify(c.before?.title ?? ''), 40)} -> ${terminalSafe(JSON.stringify(c.after?.title ?? ''), 40)}`,
        );
      return `~ ${name}: ${parts.join('; ') || 'unchanged'}`;
    }
  }
}

/** Identical findings (rule, standing, message) on many tools, as one row. */
export interface FindingGroup {
  first: Finding;
  tools: string[];
}

/** From this many tools on, identical findings are one row in text and markdown. */
const GROUP_FROM = 3;
/** The tools a grouped row names before "and N more". */
const GROUP_NAMES = 4;

/**
 * The findings as rows: those of one rule, severity, waiver and message on {@link GROUP_FROM} or
 * more tools become one row, at the place of the first (the JSON report and SARIF keep each).
 */
export function groupFindings(findings: Finding[]): FindingGroup[] {
  const key = (f: Finding) =>
    JSON.stringify([f.rule, f.severity, f.message, f.waived?.reason ?? null, f.approved ?? false]);
  const byKey = new Map<string, Finding[]>();
  for (const f of findings)
    if (f.tool !== undefined) byKey.set(key(f), [...(byKey.get(key(f)) ?? []), f]);
  const out: FindingGroup[] = [];
  const done = new Set<string>();
  for (const f of findings) {
    const same = f.tool !== undefined ? (byKey.get(key(f)) ?? []) : [];
    if (same.length < GROUP_FROM) {
      out.push({ first: f, tools: f.tool !== undefined ? [f.tool] : [] });
      continue;
    }
    if (done.has(key(f))) continue;
    done.add(key(f));
    out.push({ first: f, tools: same.map((g) => g.tool as string) });
  }
  return out;
}

/** "24 tools: a, b, c, d and 20 more", each name written by `name`. */
function toolsCell(tools: string[], name: (tool: string) => string): string {
  if (tools.length === 1) return name(tools[0] as string);
  const shown = tools.slice(0, GROUP_NAMES).map(name).join(', ');
  return `${tools.length} tools: ${shown}${tools.length > GROUP_NAMES ? ` and ${tools.length - GROUP_NAMES} more` : ''}`;
}

function findingLine(group: FindingGroup): string[] {
  const f = group.first;
  const tag = f.waived
    ? `${f.severity} (waived: ${terminalSafe(f.waived.reason, 80)})`
    : f.approved
      ? 'notice (approved)'
      : f.severity;
  return [
    tag,
    f.rule,
    group.tools.length ? toolsCell(group.tools, (t) => terminalSafe(t, 48)) : '-',
    terminalSafe(f.message, 400),
  ];
}

/** The rows of a findings table in text. */
function findingRows(findings: Finding[]): string[][] {
  return groupFindings(findings).map(findingLine);
}

/** "What to do": each distinct fix of the findings that are not waived, with its rule. */
function fixLines(findings: Finding[]): string[] {
  const fixes = [
    ...new Set(findings.filter((f) => f.fix && !f.waived).map((f) => `${f.rule}: ${f.fix}`)),
  ];
  return fixes.length ? ['', 'What to do:', ...fixes.map((x) => `  ${x}`)] : [];
}

function serverText(s: ServerReport): string {
  const counts = countsOf(s.tools, s.findings, s.changes);
  const lines = [
    `${terminalSafe(s.server, 64)} (${terminalSafe(s.target, 100)}, ${s.era} era): ${plural(counts.tools, 'tool')}: ${counts.read} read, ${counts.edit} edit, ${counts.delete} delete`,
    '',
  ];
  if (s.unpinnedName !== undefined) lines.push(unpinnedNote(s), '');
  if (s.tools.length) {
    const rows = [['TOOL', 'CLASS', 'REACH', ...HINT_NAMES.map((h) => SHORT_HINT[h]), 'TITLE']];
    for (const t of s.tools)
      rows.push([
        terminalSafe(t.name, 48),
        t.class,
        t.reach,
        ...HINT_NAMES.map((h) => hintCell(t, h)),
        `${terminalSafe(t.title, 50)}${t.titleSource === 'none' ? ' (no title)' : t.titleSource === 'tool' ? ' (Tool.title)' : ''}`,
      ]);
    if (s.tools.some((t) => t.claudeCode)) {
      (rows[0] as string[]).push('CLAUDE CODE');
      s.tools.forEach((t, i) => rows[i + 1]?.push(claudeCodeCell(t, terminalSafe)));
    }
    lines.push(table(rows), '');
  }
  if (s.changes.length) lines.push('Changes:', ...s.changes.map(changeLine), '');
  if (s.findings.length) {
    lines.push('Findings:', table(findingRows(s.findings)), ...fixLines(s.findings), '');
  }
  if (s.stdoutNoise.length)
    lines.push(
      `Note: the server wrote ${plural(s.stdoutNoise.length, 'line')} to stdout that ${s.stdoutNoise.length === 1 ? 'is' : 'are'} not JSON-RPC messages (first: ${terminalSafe(s.stdoutNoise[0] ?? '', 60)}); stdio servers must log to stderr.`,
      '',
    );
  return lines.join('\n');
}

/** "1 warning", "2 warnings". */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The one-line verdict; for update, with what it wrote. */
export function verdictLine(report: Report): string {
  const c = reportCounts(report);
  if (report.mode === 'update') {
    const { entries, kept } = report.written ?? { entries: c.tools, kept: 0 };
    const removed =
      report.servers.reduce((n, s) => n + s.changes.filter((c) => c.kind === 'removed').length, 0) +
      (report.others?.pruned ? report.others.records.length : 0);
    const others = report.others;
    const otherServers = others ? [...new Set(others.records.map((r) => r.server))] : [];
    const held = [
      `${plural(entries, 'tool')}${kept ? `; ${kept} kept as reviewed because ${kept === 1 ? 'its tool was' : 'their tools were'} listed malformed` : ''}`,
      ...(removed ? [`${plural(removed, 'entry').replace(/entrys$/, 'entries')} removed`] : []),
      ...(others && !others.pruned
        ? [
            `${plural(others.records.length, 'entry').replace(/entrys$/, 'entries')} of ${otherServers.map((n) => `"${terminalSafe(n, 64)}"`).join(', ')}, not audited, kept (--prune removes them)`,
          ]
        : []),
    ].join('; ');
    return report.classListWritten
      ? `UPDATED: ${report.classList} (${held}). Review the diff and commit it.`
      : `UNCHANGED: ${report.classList} (${held}). Nothing changed, so there is nothing to commit.`;
  }
  const counted = `${plural(c.error, 'error')}, ${plural(c.warning, 'warning')}, ${plural(c.notice, 'notice')}${c.waived ? `, ${c.waived} waived` : ''}`;
  if (report.mode === 'list')
    return `LISTED: ${plural(c.tools, 'tool')} (${c.read} read, ${c.edit} edit, ${c.delete} delete); ${counted}.`;
  const verdict = `${report.result === 'passed' ? 'PASSED' : 'FAILED'}: ${counted} (fail-on: ${report.failOn}).`;
  return `${verdict} ${nextStep(report)}`;
}

/** What to do after this check: the verdict line's last sentence. */
function nextStep(report: Report): string {
  const update = report.updateCommand ? `\`${report.updateCommand}\`` : 'update';
  if (report.firstRun)
    return `Next: run ${update}, review ${report.classList} and commit it${allFindings(report).some((f) => f.rule !== 'unrecorded-change' && !f.waived && meetsThreshold(f.severity, report.failOn)) ? '; then fix or waive the other findings' : ''}.`;
  if (report.result === 'passed') return 'Nothing to do.';
  return 'Next: fix what each finding says (What to do), waive one with a reason in the config file, or, for an intended change, run the update command and commit the class list.';
}

/** Said once, first, when check runs with no class list yet: how to start one. */
function firstRunText(report: Report): string {
  return [
    `No class list yet: ${report.classList} does not exist. To start one:`,
    `  1. Run this exact command:`,
    `       ${report.updateCommand ?? `${NPX_COMMAND} update`}`,
    `  2. Review ${report.classList}: each tool's class (read, edit or delete) is what reviewers accept.`,
    `  3. Commit it. From then on, check compares the live server with it on every change.`,
    `The policy findings below are about the annotations themselves.`,
    '',
  ].join('\n');
}

/** A name taken from the server's serverInfo, with how to pin the client's name instead. */
function unpinnedNote(s: ServerReport): string {
  return `Note: the name "${terminalSafe(s.server, 64)}" (the <server> in mcp__<server>__<tool>) comes from the server's serverInfo.name "${terminalSafe(s.unpinnedName ?? '', 64)}". Clients name its tools by their config key (in .mcp.json, the key under mcpServers): pin that name with --server-name KEY (the server-name input), or list the server in .mcp.json.`;
}

export function renderText(report: Report): string {
  const parts = report.servers.map(serverText);
  if (report.firstRun) parts.unshift(firstRunText(report));
  if (report.others?.pruned)
    parts.push(
      [
        'Changes (servers not audited, removed with --prune):',
        ...report.others.records.map(
          (r) =>
            `- ${terminalSafe(fullToolName(r.server, r.tool), 120)}: removed, was ${r.class} (${r.reach})`,
        ),
        '',
      ].join('\n'),
    );
  // The run's own findings (stale waivers, a recorded server no longer configured).
  if (report.findings.length)
    parts.push(
      ['Config:', table(findingRows(report.findings)), ...fixLines(report.findings), ''].join('\n'),
    );
  parts.push(verdictLine(report));
  return `${parts.join('\n')}\n`;
}

// ---------- markdown: the CLI's --format markdown and the job summary ----------

const CLASS_ICON = { read: 'read', edit: 'edit', delete: 'delete' } as const;

function mdHint(v: RecordedHint): string {
  return v === 'absent' ? '_absent_' : `\`${v}\``;
}

/** A markdown table whose rows are written on demand: a cut table writes only the rows it keeps. */
export interface Table {
  header: string;
  count: number;
  row: (index: number) => string;
}

/** The whole table as markdown. */
function markdownTable(table: Table): string {
  const lines = [table.header];
  for (let i = 0; i < table.count; i++) lines.push(table.row(i));
  return lines.join('\n');
}

export function changesTable(changes: ToolChange[]): Table {
  return {
    header: '| Tool | Change | Class | Reach | Hints that moved |\n| --- | --- | --- | --- | --- |',
    count: changes.length,
    row: (i) => {
      const c = changes[i] as ToolChange;
      // Before → after, the new value in bold, where it changed; else as it is.
      const field = (key: 'class' | 'reach') =>
        c.before && c.after
          ? c.before[key] === c.after[key]
            ? c.after[key]
            : `${c.before[key]} → **${c.after[key]}**`
          : ((c.after ?? c.before)?.[key] ?? '');
      const what =
        c.kind === 'renamed'
          ? `${c.probable ? 'probably ' : ''}renamed from ${markdownSafe(c.before?.tool ?? '', 64)}`
          : c.kind;
      const moved = c.hints
        .map((m) => `${m.hint}: ${mdHint(m.before)} → ${mdHint(m.after)}`)
        .join('<br>');
      return `| ${markdownSafe(c.tool, 64)} | ${what} | ${field('class')} | ${field('reach')} | ${moved || (c.titleChanged ? 'title changed' : '')} |`;
    },
  };
}

export function findingsTable(findings: Finding[]): Table {
  const groups = groupFindings(findings);
  return {
    header: '| Severity | Rule | Tool | Finding |\n| --- | --- | --- | --- |',
    count: groups.length,
    row: (i) => {
      const { first: f, tools } = groups[i] as FindingGroup;
      const sev = f.waived
        ? `${f.severity} (waived: ${markdownSafe(f.waived.reason, 120)})`
        : f.approved
          ? 'notice (approved)'
          : f.severity;
      return `| ${sev} | \`${f.rule}\` | ${tools.length ? toolsCell(tools, (t) => markdownSafe(t, 64)) : ''} | ${markdownSafe(f.message, 300)} |`;
    },
  };
}

export function inventoryTable(tools: AuditedTool[]): Table {
  const rules = tools.some((t) => t.claudeCode);
  return {
    header: `| Tool | Title | Class | Reach | readOnly | destructive | idempotent | openWorld |${rules ? ' Claude Code |' : ''}\n| --- | --- | --- | --- | --- | --- | --- | --- |${rules ? ' --- |' : ''}`,
    count: tools.length,
    row: (i) => {
      const t = tools[i] as AuditedTool;
      return `| ${markdownSafe(t.name, 64)} | ${t.titleSource === 'none' ? '_none_' : markdownSafe(t.title, 80)} | ${CLASS_ICON[t.class]} | ${t.reach} | ${HINT_NAMES.map((h) => (t.hints[h].declared ? `\`${t.hints[h].value}\`` : '_absent_')).join(' | ')} |${rules ? ` ${claudeCodeCell(t, markdownSafe)} |` : ''}`;
    },
  };
}

/** A tool's Claude Code decision and the rule that makes it: `deny (mcp__notes__delete_note)`. */
function claudeCodeCell(t: AuditedTool, safe: (text: string, max: number) => string): string {
  const c = t.claudeCode;
  if (!c) return '-';
  return c.decision === 'unset'
    ? 'unset (asks)'
    : `${c.decision} (${safe(c.rule ?? '', 60)}, ${safe(`${c.file ?? ''}:${c.line ?? ''}`, 80)})`;
}

/** A text's size in some unit: UTF-16 code units (GitHub's comment limit) or UTF-8 bytes. */
export type Measure = (text: string) => number;
const codeUnits: Measure = (text) => text.length;
const utf8Bytes: Measure = (text) => Buffer.byteLength(text, 'utf8');

/**
 * The table cut to fit `budget`: its header and as many rows as fit whole (only those are
 * written), then, when rows were left out, the note `omitted` writes for their number.
 */
export function fitTable(
  table: Table,
  budget: number,
  omitted: (count: number) => string,
  measure: Measure = codeUnits,
): string {
  const lines = [table.header];
  let size = measure(table.header);
  let kept = 0;
  for (; kept < table.count; kept++) {
    const line = table.row(kept);
    if (size + measure(line) + 1 > budget) break;
    lines.push(line);
    size += measure(line) + 1;
  }
  const text = lines.join('\n');
  return kept === table.count ? text : `${text}\n\n${omitted(table.count - kept)}`;
}

/** Bytes kept for the note that says how many rows, or servers, a budget left out. */
const NOTE_ROOM = 320;

const verdictHeading = (report: Report) => `### MCP tool annotations: ${verdictLine(report)}`;

function serverHeading(s: ServerReport): string[] {
  const c = countsOf(s.tools, s.findings, s.changes);
  return [
    `#### Server ${markdownSafe(s.server, 64)}`,
    '',
    `${plural(c.tools, 'tool')}: ${c.read} read, ${c.edit} edit, ${c.delete} delete.`,
    '',
    ...(s.unpinnedName !== undefined ? [markdownSafe(unpinnedNote(s), 1_000), ''] : []),
  ];
}

/** The first-run block in markdown: the update command as a code block to copy. */
function firstRunMarkdown(report: Report): string[] {
  return [
    `**No class list yet** (\`${codeSpanSafe(report.classList, 200)}\` does not exist). Run this exact command, review the file, and commit it:`,
    '',
    ...codeBlock(report.updateCommand ?? `${NPX_COMMAND} update`, 'sh'),
    '',
    'The policy findings below are about the annotations themselves.',
    '',
  ];
}

/** A fenced code block whose fence is longer than any run of backticks in `text`. */
export function codeBlock(text: string, lang = ''): string[] {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [`${fence}${lang}`, text, fence];
}

/** Thrown inside {@link wholeWithin} as soon as the whole report passes its limit. */
class OverLimit extends Error {}

/**
 * The whole report, every row, or undefined once it passes `limit` bytes: the rows after that
 * are never written.
 */
function wholeWithin(report: Report, limit: number): string | undefined {
  const lines: string[] = [];
  let size = 0;
  const push = (...texts: string[]) => {
    lines.push(...texts);
    if (limit === Infinity) return;
    for (const text of texts) size += utf8Bytes(text) + 1;
    if (size > limit) throw new OverLimit();
  };
  const section = (title: string, table: Table) => {
    push(title, '', table.header);
    for (let i = 0; i < table.count; i++) push(table.row(i));
    push('');
  };
  try {
    push(verdictHeading(report), '');
    if (report.firstRun) push(...firstRunMarkdown(report));
    for (const s of report.servers) {
      push(...serverHeading(s));
      if (s.changes.length) section('**Changes**', changesTable(s.changes));
      if (s.findings.length) section('**Findings**', findingsTable(s.findings));
      if (s.tools.length) section('**Tools**', inventoryTable(s.tools));
    }
    if (report.findings.length) section('**Config**', findingsTable(report.findings));
  } catch (error) {
    if (error instanceof OverLimit) return undefined;
    throw error;
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The report as markdown (the job summary, `--format markdown`). With a `budget` in UTF-8 bytes,
 * a report that does not fit keeps, in each table, the rows that fit its share, and says how many
 * it left out: the JSON report has them all.
 */
export function renderMarkdown(report: Report, budget = Infinity): string {
  const whole = wholeWithin(report, budget);
  if (whole !== undefined) return whole;
  const out = [verdictHeading(report), '', ...(report.firstRun ? firstRunMarkdown(report) : [])];
  const note = (what: string) => (count: number) =>
    `_…and ${count} more ${what}, left out to keep the job summary within GitHub's size limit: the JSON report (the \`report\` output) has them all._`;
  const bytesOf = (lines: string[]) => utf8Bytes(lines.join('\n')) + 1;
  let left = budget - bytesOf(out) - 1;
  /** The table fitted to `room` bytes, title and note included; what it used comes off `left`. */
  const fitted = (title: string, table: Table, what: string, room: number): string[] => {
    const around = bytesOf([title, '', '']) + NOTE_ROOM;
    const lines = [title, '', fitTable(table, room - around, note(what), utf8Bytes), ''];
    left -= bytesOf(lines);
    return lines;
  };
  // The config's findings come last, in room kept for them now: what they need, up to a tenth.
  const config = report.findings.length ? findingsTable(report.findings) : undefined;
  const configRoom = config
    ? Math.min(bytesOf(['**Config**', '', markdownTable(config), '']), left / 10)
    : 0;
  left -= configRoom;
  for (const [index, s] of report.servers.entries()) {
    const head = serverHeading(s);
    // Room for this server's heading, one table's header and a note, and for the last note.
    if (left < bytesOf(head) + 4 * NOTE_ROOM) {
      const lines = [note('servers')(report.servers.length - index), ''];
      out.push(...lines);
      left -= bytesOf(lines);
      break;
    }
    out.push(...head);
    left -= bytesOf(head);
    // This server's share of what is left; room a section does not use goes to the next one.
    const share = left / (report.servers.length - index);
    const keep = left - share;
    if (s.changes.length)
      out.push(...fitted('**Changes**', changesTable(s.changes), 'changes', share * 0.4));
    if (s.findings.length)
      out.push(
        ...fitted('**Findings**', findingsTable(s.findings), 'findings', (left - keep) * 0.6),
      );
    if (s.tools.length)
      out.push(...fitted('**Tools**', inventoryTable(s.tools), 'tools', left - keep));
  }
  if (config) out.push(...fitted('**Config**', config, 'findings', left + configRoom));
  return `${out.join('\n')}\n`;
}

export function render(report: Report, format: Format): string {
  return format === 'json'
    ? renderJson(report)
    : format === 'markdown'
      ? renderMarkdown(report, Infinity)
      : renderText(report);
}
