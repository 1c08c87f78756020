import { allFindings, type AuditedTool, type Report, type ServerReport } from './audit.js';
import { fullToolName, type RecordedHint, type ToolRecord } from './classlist.js';
import type { ToolChange } from './diff.js';
import { markdownSafe, terminalSafe } from './escape.js';
import type { Finding } from './findings.js';
import { HINT_NAMES, type HintName } from './tools.js';

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

function findingLine(f: Finding): string[] {
  const tag = f.waived ? `${f.severity} (waived)` : f.approved ? 'notice (approved)' : f.severity;
  const row = [
    tag,
    f.rule,
    f.tool !== undefined ? terminalSafe(f.tool, 48) : '-',
    terminalSafe(f.message, 400),
  ];
  return row;
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
    `${terminalSafe(s.server, 64)} (${terminalSafe(s.target, 100)}, ${s.era} era): ${counts.tools} tools: ${counts.read} read, ${counts.edit} edit, ${counts.delete} delete`,
    '',
  ];
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
    lines.push(table(rows), '');
  }
  if (s.changes.length) lines.push('Changes:', ...s.changes.map(changeLine), '');
  if (s.findings.length) {
    lines.push('Findings:', table(s.findings.map(findingLine)), ...fixLines(s.findings), '');
  }
  if (s.stdoutNoise.length)
    lines.push(
      `Note: the server wrote ${s.stdoutNoise.length} non-JSON line(s) to stdout (first: ${terminalSafe(s.stdoutNoise[0] ?? '', 60)}); stdio servers must log to stderr.`,
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
    return `LISTED: ${c.tools} tools (${c.read} read, ${c.edit} edit, ${c.delete} delete); ${counted}.`;
  return `${report.result === 'passed' ? 'PASSED' : 'FAILED'}: ${counted} (fail-on: ${report.failOn}).`;
}

export function renderText(report: Report): string {
  const parts = report.servers.map(serverText);
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
      ['Config:', table(report.findings.map(findingLine)), ...fixLines(report.findings), ''].join(
        '\n',
      ),
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
  return {
    header: '| Severity | Rule | Tool | Finding |\n| --- | --- | --- | --- |',
    count: findings.length,
    row: (i) => {
      const f = findings[i] as Finding;
      const sev = f.waived
        ? `${f.severity} (waived: ${markdownSafe(f.waived.reason, 120)})`
        : f.approved
          ? 'notice (approved)'
          : f.severity;
      return `| ${sev} | \`${f.rule}\` | ${f.tool !== undefined ? markdownSafe(f.tool, 64) : ''} | ${markdownSafe(f.message, 300)} |`;
    },
  };
}

export function inventoryTable(tools: AuditedTool[]): Table {
  return {
    header:
      '| Tool | Title | Class | Reach | readOnly | destructive | idempotent | openWorld |\n| --- | --- | --- | --- | --- | --- | --- | --- |',
    count: tools.length,
    row: (i) => {
      const t = tools[i] as AuditedTool;
      return `| ${markdownSafe(t.name, 64)} | ${t.titleSource === 'none' ? '_none_' : markdownSafe(t.title, 80)} | ${CLASS_ICON[t.class]} | ${t.reach} | ${HINT_NAMES.map((h) => (t.hints[h].declared ? `\`${t.hints[h].value}\`` : '_absent_')).join(' | ')} |`;
    },
  };
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
    `${c.tools} tools: ${c.read} read, ${c.edit} edit, ${c.delete} delete.`,
    '',
  ];
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
  const out = [verdictHeading(report), ''];
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
