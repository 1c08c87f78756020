// report/: findings -> report, and the report in every format (text, markdown, JSON with its one
// schema, the PR comment's body and marker, SARIF, reading a report file back). Pure: the sinks
// that print, post or write it live in action/ and cli/. May import core/, clients/ (pure) and
// the shared leaves; never config/ or a layer above (scripts/layers.mjs). A new output format
// starts here.
import type { ClaudeCodeDecision } from '../clients/claude-code/client-rules.js';
import type { ClientVerdict } from '../clients/client.js';
import type { ClassifiedTool } from '../core/classify.js';
import { fullToolName, type ToolRecord } from '../core/classlist.js';
import type { ToolChange } from '../core/diff.js';
import type { Finding } from '../core/findings.js';
import { meetsThreshold, RULES, type FailOn } from '../core/rules.js';
import type { EraSetting } from '../core/eras.js';
import type { Policy } from '../core/policy-names.js';

/*
 * What an audit found, as every output reads it (text, markdown, JSON, comments, SARIF): the
 * report and its counts. The orchestrator (audit.ts) builds it; a report file (reportfile.ts)
 * rebuilds it.
 */

export interface AuditedTool extends ClassifiedTool {
  fullName: string;
  /** With settings files to check: what Claude Code decides for the tool. */
  claudeCode?: ClaudeCodeDecision;
  /** With committed client configs checked: what each client decides, by client id. */
  clients?: Record<string, ClientVerdict>;
}

/** What one client decides for a changed tool: against the base record, and against the head's. */
export interface ChangeVerdicts {
  before: ClientVerdict;
  after: ClientVerdict;
}

/**
 * A change as the report holds it: with, for a class or hint change, each judged client's
 * decision before and after (by client id, in the registry's order), against the same committed
 * config.
 */
export interface ReportedChange extends ToolChange {
  clients?: Record<string, ChangeVerdicts>;
}

export interface ServerReport {
  /** The name in `mcp__<server>__<tool>`. */
  server: string;
  serverInfo?: { name: string; version?: string };
  /** The command line or URL, for people. */
  target: string;
  era: EraSetting;
  tools: AuditedTool[];
  findings: Finding[];
  /** What changed against the base class list (or the class list at HEAD when no base). */
  changes: ReportedChange[];
  stdoutNoise: string[];
  /** Set when nothing named the server: the serverInfo.name its name was made from. */
  unpinnedName?: string;
  /**
   * The name the base class list records this server under, when its tools matched there under
   * another name (a renamed config key, or a server that now calls itself otherwise).
   */
  renamedFrom?: string;
  /**
   * Names of listed tools that failed validation (a `malformed-tool` finding each): their
   * class-list entries, the reviewed decision, are neither compared nor dropped by update.
   */
  malformedNames?: string[];
}

export const MODES = ['list', 'check', 'update'] as const;
export type Mode = (typeof MODES)[number];

export interface Report {
  mode: Mode;
  result: 'passed' | 'failed';
  failOn: FailOn;
  classList: string;
  /** The policies checked (with each server's era, what tells this run's comment apart). */
  policies?: Policy[];
  servers: ServerReport[];
  /** Findings about the run itself, not one server (stale waivers, a recorded server gone). */
  findings: Finding[];
  /** For update: whether the class list file changed. */
  classListWritten?: boolean;
  /**
   * For update: the entries the class list holds for the audited servers, and how many of them
   * were kept as reviewed because their tool was listed malformed.
   */
  written?: { entries: number; kept: number };
  /** For check: how to accept a change (the update command for this run's settings). */
  updateCommand?: string;
  /** For check: there is no class list yet, so the first thing to do is to write one. */
  firstRun?: boolean;
  /** For check: servers the base class list records that no audited server matched. */
  removedServers?: string[];
  /**
   * For update: entries of servers this run did not audit. Removed (`pruned`) only with --prune;
   * else kept, and counted so the verdict can say so.
   */
  others?: { pruned: boolean; records: ToolRecord[] };
}

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

export function allFindings(report: Report): Finding[] {
  return [...report.servers.flatMap((s) => s.findings), ...report.findings];
}

/**
 * Every finding with the class-list key of the tool it is about (`mcp__<server>__<tool>`), where
 * it has one: the line it is located on (annotations, SARIF). The run's own findings have none.
 */
export function keyedFindings(report: Report): { finding: Finding; key?: string }[] {
  return [
    ...report.servers.flatMap((s) =>
      s.findings.map((finding) =>
        finding.tool !== undefined
          ? { finding, key: fullToolName(s.server, finding.tool) }
          : { finding },
      ),
    ),
    ...report.findings.map((finding) => ({ finding })),
  ];
}

/** Whether any unwaived finding meets the fail-on threshold. */
export function resultOf(findings: Finding[], failOn: FailOn): 'passed' | 'failed' {
  // A config that lowers failOn is one of the relaxations config-relaxed reports: a rule that
  // judges the config fails at error whatever the threshold it is about says.
  const strictest: FailOn = meetsThreshold('error', failOn) ? failOn : 'error';
  return findings.some(
    (f) => !f.waived && meetsThreshold(f.severity, RULES[f.rule].judgesConfig ? strictest : failOn),
  )
    ? 'failed'
    : 'passed';
}
