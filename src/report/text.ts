import { NPX_COMMAND } from '../version.js';
import { fullToolName, recordedHint } from '../core/classlist.js';
import { movedFrom, type ToolChange } from '../core/diff.js';
import type { Finding } from '../core/findings.js';
import { requiredDrops } from '../core/advice.js';
import { meetsThreshold, RULES } from '../core/rules.js';
import { hintText, list, plural } from '../core/text.js';
import { HINT_NAMES, type HintName } from '../core/tools.js';
import { terminalSafe } from '../escape.js';
import { lineDiff } from './model-text.js';
import {
  allFindings,
  countsOf,
  reportCounts,
  type AuditedTool,
  type Report,
  type ServerReport,
} from './report.js';
import {
  claudeCodeCell,
  clientCell,
  groupFindings,
  otherClients,
  toolsCell,
  type FindingGroup,
} from './table.js';

/* The report as text, for a person at a terminal: a table per server and a one-line verdict. */

const SHORT_HINT: Record<HintName, string> = {
  readOnlyHint: 'RO',
  destructiveHint: 'DE',
  idempotentHint: 'ID',
  openWorldHint: 'OW',
};

function hintCell(t: AuditedTool, h: HintName): string {
  return hintText(recordedHint(t.hints[h]), '-');
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

function changeLine(c: ToolChange): string {
  const name = terminalSafe(c.tool, 64);
  switch (c.kind) {
    case 'added':
      return `+ ${name}: added, ${c.after?.class} (${c.after?.reach})`;
    case 'removed':
      return `- ${name}: removed, was ${c.before?.class} (${c.before?.reach})`;
    default: {
      const parts = [];
      const from = movedFrom(c);
      if (c.kind === 'renamed' && from !== undefined)
        parts.push(
          `${c.probable ? 'probably ' : ''}moved from server ${terminalSafe(from, 64)}${c.before?.tool === c.tool ? '' : ` (was ${terminalSafe(c.before?.tool ?? '', 64)})`}`,
        );
      else if (c.kind === 'renamed')
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
            .map((m) => `${m.hint} ${hintText(m.before, '-')} -> ${hintText(m.after, '-')}`)
            .join(', '),
        );
      if (c.titleChanged)
        parts.push(
          `title ${terminalSafe(JSON.stringify(c.before?.title ?? ''), 40)} -> ${terminalSafe(JSON.stringify(c.after?.title ?? ''), 40)}`,
        );
      const schema = c.inputSchemaChanged;
      if (schema)
        parts.push(
          schema.paths?.length
            ? `input schema changed at ${schema.paths.map((p) => terminalSafe(p, 80)).join(', ')}${schema.more ? ` and ${schema.more} more` : ''}`
            : 'input schema changed',
        );
      if (c.descriptionChanged) parts.push('description changed (below)');
      return `~ ${name}: ${parts.join('; ') || 'unchanged'}`;
    }
  }
}

/** The most lines of a description's diff printed; the PR comment and the JSON report have it all. */
const MAX_DIFF_LINES = 40;

/** A change's description as the class list pins it (`-`) and as served now (`+`), indented. */
function descriptionLines(c: ToolChange): string[] {
  const description = c.descriptionChanged;
  if (!description) return [];
  const diff = lineDiff(description.before, description.after);
  const lines = diff.slice(0, MAX_DIFF_LINES).map((l) => `    ${terminalSafe(l, 400)}`);
  if (diff.length > MAX_DIFF_LINES)
    lines.push(`    ...and ${diff.length - MAX_DIFF_LINES} more lines`);
  return ['  description, as pinned (-) and as served now (+):', ...lines];
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

/** Each distinct fix of the findings that are not waived, with its rule: "rule: fix". */
export function distinctFixes(findings: Finding[]): string[] {
  return [...new Set(findings.filter((f) => f.fix && !f.waived).map((f) => `${f.rule}: ${f.fix}`))];
}

/** "What to do": each distinct fix of the findings that are not waived, with its rule. */
function fixLines(findings: Finding[]): string[] {
  const fixes = distinctFixes(findings);
  return fixes.length
    ? ['', 'What to do:', ...fixes.map((x) => `  ${terminalSafe(x, 1_000)}`)]
    : [];
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
    for (const client of otherClients(s.tools)) {
      (rows[0] as string[]).push(terminalSafe(client.label, 40).toUpperCase());
      s.tools.forEach((t, i) =>
        rows[i + 1]?.push(clientCell(t.clients?.[client.id], terminalSafe)),
      );
    }
    lines.push(table(rows), '');
  }
  if (s.changes.length)
    lines.push(
      'Changes:',
      ...s.changes.flatMap((c) => [changeLine(c), ...descriptionLines(c)]),
      '',
    );
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
      ? `UPDATED: ${listShown(report)} (${held}). Review the diff and commit it.`
      : `UNCHANGED: ${listShown(report)} (${held}). Nothing changed, so there is nothing to commit.`;
  }
  const counted = `${plural(c.error, 'error')}, ${plural(c.warning, 'warning')}, ${plural(c.notice, 'notice')}${c.waived ? `, ${c.waived} waived` : ''}`;
  if (report.mode === 'list')
    return `LISTED: ${plural(c.tools, 'tool')} (${c.read} read, ${c.edit} edit, ${c.delete} delete); ${counted}.`;
  const verdict = `${report.result === 'passed' ? 'PASSED' : 'FAILED'}: ${counted} (fail-on: ${report.failOn}).`;
  return `${verdict} ${nextStep(report)}`;
}

/** The class list's path as printed: from a config file or a report file, so made inert. */
function listShown(report: Report): string {
  return terminalSafe(report.classList, 200);
}

/** What to do after this check: the verdict line's last sentence. */
function nextStep(report: Report): string {
  const update = report.updateCommand ? `\`${report.updateCommand}\`` : 'update';
  if (report.firstRun)
    return `Next: run ${update}, review ${listShown(report)} and commit it${allFindings(report).some((f) => !RULES[f.rule].drift && !f.waived && meetsThreshold(f.severity, report.failOn)) ? '; then fix or waive the other findings' : ''}.`;
  if (report.result === 'passed') return 'Nothing to do.';
  const drops = report.servers.flatMap((s) => requiredDrops(s.findings, s.changes));
  if (drops.length) {
    const declare = list(drops.map((d) => `${d.declaration} on ${terminalSafe(d.tool, 64)}`));
    const policies = list([...new Set(drops.flatMap((d) => d.policies))]);
    return `Next: declare ${declare} again instead of removing it: ${policies} requires it, and neither update nor the approval label clears a policy error.`;
  }
  const drift = allFindings(report).some((f) => RULES[f.rule].drift && !f.waived);
  return `Next: fix what each finding says (What to do), waive one with a reason in the config file, or, for an intended change, run ${drift && report.updateCommand ? update : 'the update command'} and commit the class list.`;
}

/**
 * How a printed command is to be run: exactly as printed, or once its placeholders (a hidden
 * secret, the URL) are filled in, as its trailing shell comment says.
 */
export function runThis(command: string | undefined): string {
  return command?.includes(' # ')
    ? 'Run this command, once you have filled in what its comment names'
    : 'Run this exact command';
}

/** Said once, first, when check runs with no class list yet: how to start one. */
function firstRunText(report: Report): string {
  return [
    `No class list yet: ${listShown(report)} does not exist. To start one:`,
    `  1. ${runThis(report.updateCommand)}:`,
    `       ${report.updateCommand ?? `${NPX_COMMAND} update`}`,
    `  2. Review ${listShown(report)}: each tool's class (read, edit or delete) is what reviewers accept.`,
    `  3. Commit it. From then on, check compares the live server with it on every change.`,
    `The policy findings below are about the annotations themselves.`,
    '',
  ].join('\n');
}

/** A name taken from the server's serverInfo, with how to pin the client's name instead. */
export function unpinnedNote(s: ServerReport): string {
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
