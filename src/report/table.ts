import { recordedHint, type RecordedHint } from '../core/classlist.js';
import { movedFrom, type ToolChange } from '../core/diff.js';
import type { Finding } from '../core/findings.js';
import { hintText } from '../core/text.js';
import { HINT_NAMES } from '../core/tools.js';
import { markdownSafe } from '../escape.js';
import type { AuditedTool } from './report.js';
import type { ClientVerdict } from '../clients/client.js';
import { clientById } from '../clients/registry.js';

/*
 * The report's tables in markdown (the job summary, --format markdown, the PR comment), each
 * written row by row on demand so that a table cut to a size limit writes only the rows it keeps.
 */

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
  // Each finding's key once, and each group's list built in place: a report of thousands of
  // findings with one message (a policy every tool misses) stays linear.
  // The rule, severity and approval are words of a fixed vocabulary; the message's length before
  // it and the waiver's reason last keep two different findings from ever sharing a key.
  const keys = findings.map(
    (f) =>
      `${f.rule} ${f.severity} ${f.approved === true} ${f.message.length}:${f.message} ${f.waived ? `w${f.waived.reason}` : '-'}`,
  );
  const byKey = new Map<string, string[]>();
  findings.forEach((f, i) => {
    if (f.tool === undefined) return;
    const key = keys[i] as string;
    const tools = byKey.get(key);
    if (tools) tools.push(f.tool);
    else byKey.set(key, [f.tool]);
  });
  const out: FindingGroup[] = [];
  const done = new Set<string>();
  findings.forEach((f, i) => {
    const key = keys[i] as string;
    const tools = f.tool !== undefined ? (byKey.get(key) ?? []) : [];
    if (tools.length < GROUP_FROM)
      out.push({ first: f, tools: f.tool !== undefined ? [f.tool] : [] });
    else if (!done.has(key)) {
      done.add(key);
      out.push({ first: f, tools });
    }
  });
  return out;
}

/** "24 tools: a, b, c, d and 20 more", each name written by `name`. */
export function toolsCell(tools: string[], name: (tool: string) => string): string {
  if (tools.length === 1) return name(tools[0] as string);
  const shown = tools.slice(0, GROUP_NAMES).map(name).join(', ');
  return `${tools.length} tools: ${shown}${tools.length > GROUP_NAMES ? ` and ${tools.length - GROUP_NAMES} more` : ''}`;
}

const CLASS_ICON = { read: 'read', edit: 'edit', delete: 'delete' } as const;

function mdHint(v: RecordedHint): string {
  return v === 'absent' ? '_absent_' : `\`${hintText(v)}\``;
}

/** A markdown table whose rows are written on demand: a cut table writes only the rows it keeps. */
export interface Table {
  header: string;
  count: number;
  row: (index: number) => string;
}

/** The whole table as markdown. */
export function markdownTable(table: Table): string {
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
      const from = movedFrom(c);
      const what =
        c.kind !== 'renamed'
          ? c.kind
          : from !== undefined
            ? `${c.probable ? 'probably ' : ''}moved from server ${markdownSafe(from, 64)}${c.before?.tool === c.tool ? '' : ` (was ${markdownSafe(c.before?.tool ?? '', 64)})`}`
            : `${c.probable ? 'probably ' : ''}renamed from ${markdownSafe(c.before?.tool ?? '', 64)}`;
      const moved = c.hints
        .map((m) => `${m.hint}: ${mdHint(m.before)} → ${mdHint(m.after)}`)
        .join('<br>');
      const also = [
        c.titleChanged ? 'title changed' : '',
        c.descriptionChanged ? 'description changed' : '',
        c.inputSchemaChanged ? 'input schema changed' : '',
      ].filter(Boolean);
      return `| ${markdownSafe(c.tool, 64)} | ${what} | ${field('class')} | ${field('reach')} | ${[moved, ...(moved ? [] : also)].filter(Boolean).join('<br>') || ''} |`;
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
  const others = otherClients(tools);
  const extra = [
    ...(rules ? ['Claude Code'] : []),
    ...others.map((c) => markdownSafe(c.label, 40)),
  ];
  return {
    header: `| Tool | Title | Class | Reach | readOnly | destructive | idempotent | openWorld |${extra.map((e) => ` ${e} |`).join('')}\n| --- | --- | --- | --- | --- | --- | --- | --- |${' --- |'.repeat(extra.length)}`,
    count: tools.length,
    row: (i) => {
      const t = tools[i] as AuditedTool;
      const cells = [
        ...(rules ? [claudeCodeCell(t, markdownSafe)] : []),
        ...others.map((c) => clientCell(t.clients?.[c.id], markdownSafe)),
      ];
      return `| ${markdownSafe(t.name, 64)} | ${t.titleSource === 'none' ? '_none_' : markdownSafe(t.title, 80)} | ${CLASS_ICON[t.class]} | ${t.reach} | ${HINT_NAMES.map((h) => mdHint(recordedHint(t.hints[h]))).join(' | ')} |${cells.map((c) => ` ${c} |`).join('')}`;
    },
  };
}

/**
 * The clients other than Claude Code (which has its own column) that decide some of the tools,
 * in the order the tools list them, each with the name people know.
 */
export function otherClients(tools: AuditedTool[]): { id: string; label: string }[] {
  const ids = new Set(tools.flatMap((t) => Object.keys(t.clients ?? {})));
  ids.delete('claude-code');
  return [...ids].map((id) => ({ id, label: clientById(id)?.label ?? id }));
}

/** A client's decision and what makes it: `allow (rule, file:line)`, or what the client did itself. */
export function clientCell(
  v: ClientVerdict | undefined,
  safe: (text: string, max: number) => string,
): string {
  if (!v) return '-';
  const at =
    v.file !== undefined
      ? `, ${safe(`${v.file}${v.line !== undefined ? `:${v.line}` : ''}`, 80)}`
      : '';
  if (v.rule !== undefined) return `${v.decision} (${safe(v.rule, 60)}${at})`;
  return `${v.decision} (${safe(v.byClient ?? 'default', 60)}${at})`;
}

/** A tool's Claude Code decision and the rule that makes it: `deny (mcp__notes__delete_note)`. */
export function claudeCodeCell(
  t: AuditedTool,
  safe: (text: string, max: number) => string,
): string {
  const c = t.claudeCode;
  if (!c) return '-';
  return c.decision === 'unset'
    ? 'unset (asks)'
    : `${c.decision} (${safe(c.rule ?? '', 60)}, ${safe(`${c.file ?? ''}:${c.line ?? ''}`, 80)})`;
}

/** A text's size in some unit: UTF-16 code units (GitHub's comment limit) or UTF-8 bytes. */
export type Measure = (text: string) => number;
const codeUnits: Measure = (text) => text.length;
export const utf8Bytes: Measure = (text) => Buffer.byteLength(text, 'utf8');

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
