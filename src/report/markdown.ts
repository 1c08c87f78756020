import { NPX_COMMAND } from '../version.js';
import { plural } from '../core/text.js';
import type { Finding } from '../core/findings.js';
import { RULES } from '../core/rules.js';
import { codeSpanSafe, markdownProse, markdownSafe } from '../escape.js';
import { allFindings, countsOf, type Report, type ServerReport } from './report.js';
import {
  changesTable,
  findingsTable,
  fitTable,
  inventoryTable,
  markdownTable,
  utf8Bytes,
  type Table,
} from './table.js';
import { distinctFixes, runThis, unpinnedNote, verdictLine } from './text.js';
import { codeBlock } from './code-block.js';
import { STALE_TITLE, staleJustificationSection } from './justifications.js';
import { MODEL_TEXT_TITLE, modelTextSection } from './model-text.js';

/* The report as markdown: the CLI's --format markdown and the action's job summary. */

/**
 * A server's sections beside its changes, as the PR comment has them: the stale hint
 * justifications, and what the model reads that changed (within `budget` characters).
 */
function beside(s: ServerReport, budget: number): string[] {
  return [
    ...staleJustificationSection(s.findings, s.changes, `**${STALE_TITLE}**`),
    ...modelTextSection(s.changes, `**${MODEL_TEXT_TITLE}**`, budget),
  ];
}

const NOTE_ROOM = 320;

// The verdict may name a tool (what to declare on it): escaped, its commands kept as code spans.
const verdictHeading = (report: Report) =>
  `### MCP tool annotations: ${markdownProse(verdictLine(report), 4_000)}`;

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
    `**No class list yet** (\`${codeSpanSafe(report.classList, 200)}\` does not exist). ${runThis(report.updateCommand)}, review the file, and commit it:`,
    '',
    ...codeBlock(report.updateCommand ?? `${NPX_COMMAND} update`, 'sh'),
    '',
    'The policy findings below are about the annotations themselves.',
    '',
  ];
}

/** The fixes a list shows before it says how many more there are: the JSON report has each. */
const MAX_FIXES = 20;

/**
 * "What to do" in markdown: each distinct fix of the findings, as the text output says it, with
 * its commands as code spans to copy (nothing inserted in them).
 */
export function fixesMarkdown(findings: Finding[], title = '**What to do**'): string[] {
  const fixes = distinctFixes(findings);
  if (!fixes.length) return [];
  const shown = fixes.slice(0, MAX_FIXES).map((fix) => `- ${markdownProse(fix, 1_000)}`);
  if (fixes.length > MAX_FIXES) shown.push(`- _…and ${fixes.length - MAX_FIXES} more._`);
  return [title, '', ...shown, ''];
}

/**
 * How to accept an intended change, with the exact update command as a block to copy: in the job
 * summary too, which is all a fork's PR or a run without a token gets.
 */
function acceptMarkdown(report: Report): string[] {
  const changed = report.servers.some((s) => s.changes.length);
  const drift = allFindings(report).some((f) => RULES[f.rule].drift && !f.waived);
  if (report.mode !== 'check' || report.firstRun || !report.updateCommand || !(changed || drift))
    return [];
  return [
    `**To accept an intended change**, ${runThis(report.updateCommand).toLowerCase()}, review the diff of the class list and commit it:`,
    '',
    ...codeBlock(report.updateCommand, 'sh'),
    '',
  ];
}

/**
 * The table with each row written once: a report over the limit is first written whole until it
 * passes it, then fitted, and the rows the first pass wrote are not written again.
 */
function written(table: Table): Table {
  const rows: string[] = [];
  return { ...table, row: (i) => (rows[i] ??= table.row(i)) };
}

/** A server's tables, each row written once (see {@link written}). */
interface ServerTables {
  changes: Table;
  findings: Table;
  tools: Table;
}

/** Thrown inside {@link wholeWithin} as soon as the whole report passes its limit. */
class OverLimit extends Error {}

/**
 * The whole report, every row, or undefined once it passes `limit` bytes: the rows after that
 * are never written.
 */
function wholeWithin(
  report: Report,
  limit: number,
  heading: string,
  tables: (s: ServerReport) => ServerTables,
  config: Table | undefined,
): string | undefined {
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
    push(heading, '');
    if (report.firstRun) push(...firstRunMarkdown(report));
    for (const s of report.servers) {
      const t = tables(s);
      push(...serverHeading(s));
      if (s.changes.length) section('**Changes**', t.changes);
      push(...beside(s, Infinity));
      if (s.findings.length) section('**Findings**', t.findings);
      push(...fixesMarkdown(s.findings));
      if (s.tools.length) section('**Tools**', t.tools);
    }
    if (config) section('**Config**', config);
    push(...fixesMarkdown(report.findings), ...acceptMarkdown(report));
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
  const heading = verdictHeading(report);
  const byServer = new Map<ServerReport, ServerTables>();
  const tables = (s: ServerReport): ServerTables => {
    let t = byServer.get(s);
    if (!t) {
      t = {
        changes: written(changesTable(s.changes)),
        findings: written(findingsTable(s.findings)),
        tools: written(inventoryTable(s.tools)),
      };
      byServer.set(s, t);
    }
    return t;
  };
  // The config's findings, in both passes.
  const config = report.findings.length ? written(findingsTable(report.findings)) : undefined;
  const whole = wholeWithin(report, budget, heading, tables, config);
  if (whole !== undefined) return whole;
  const out = [heading, '', ...(report.firstRun ? firstRunMarkdown(report) : [])];
  const note = (what: string) => (count: number) =>
    `_…and ${count} more ${what}, left out to keep the job summary within GitHub's size limit: the JSON report (the \`report\` output) has them all._`;
  const bytesOf = (lines: string[]) => utf8Bytes(lines.join('\n')) + 1;
  // What to do comes last, in room kept for it now: it is what the reader acts on.
  const tail = [...fixesMarkdown(allFindings(report)), ...acceptMarkdown(report)];
  let left = budget - bytesOf(out) - bytesOf(tail) - 1;
  /** The table fitted to `room` bytes, title and note included; what it used comes off `left`. */
  const fitted = (title: string, table: Table, what: string, room: number): string[] => {
    const around = bytesOf([title, '', '']) + NOTE_ROOM;
    const lines = [title, '', fitTable(table, room - around, note(what), utf8Bytes), ''];
    left -= bytesOf(lines);
    return lines;
  };
  // The config's findings come last, in room kept for them now: what they need, up to a tenth.
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
      out.push(...fitted('**Changes**', tables(s).changes, 'changes', share * 0.4));
    // Characters, not bytes: at most four bytes each.
    const more = beside(s, (share * 0.2) / 4);
    out.push(...more);
    left -= bytesOf(more);
    if (s.findings.length)
      out.push(...fitted('**Findings**', tables(s).findings, 'findings', (left - keep) * 0.6));
    if (s.tools.length) out.push(...fitted('**Tools**', tables(s).tools, 'tools', left - keep));
  }
  if (config) out.push(...fitted('**Config**', config, 'findings', left + configRoom));
  out.push(...tail);
  return `${out.join('\n')}\n`;
}
