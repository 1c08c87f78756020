import { readFile } from 'node:fs/promises';
import * as core from '@actions/core';
import { logLine } from './log.js';
import { allFindings, keyedFindings, reportCounts, type Report } from '../report/report.js';
import type { Waiver } from '../config/settings.js';
import { waiverLines } from '../config/file.js';
import { pinnedCommand } from '../config/pin-name.js';
import { toolLines } from '../core/classlist.js';
import { findingText, type Finding } from '../core/findings.js';
import { bySeverity } from '../core/rules.js';
import { repositoryRoot, writeConfined } from '../confined.js';
import { AuditError, describeError, getErrorMessage } from '../errors.js';
import { terminalSafe } from '../escape.js';
import type { CommentContext } from '../report/comment.js';
import { verdictLine } from '../report/text.js';
import { renderSarif } from '../report/sarif.js';
import { VERSION } from '../version.js';
import { commentFailedRun, postComments, type Posted } from './comments.js';
import type { ActionContext } from './context.js';
import { markersOf } from './failure.js';
import { repoRelative, type Audited, type GivenFailedRun } from './run-audit.js';
import { appendSummary, summaryOf } from './summary.js';

/** Step three of the action: the job summary, outputs, annotations, SARIF and PR comments. */

const MAX_ANNOTATIONS = 50;

/** The config file's waivers and where each is written, for annotations about them. */
export interface WaiverPlaces {
  /** The config file's path from the repository's root. */
  file: string;
  waivers: Waiver[];
  /** The line of each waiver (see waiverLines); 0 where unknown. */
  lines: number[];
}

export interface Annotation {
  level: 'error' | 'warning' | 'notice';
  message: string;
  props: { title?: string; file?: string; line?: number };
}

/** Stale waivers, in the order the waivers are written: each takes the first of its tool not taken. */
function waiverPlacer(
  config: WaiverPlaces | undefined,
): (f: Finding) => Annotation['props'] | undefined {
  const taken = new Set<number>();
  return (f) => {
    if (!config || f.rule !== 'stale-waiver') return undefined;
    const free = (i: number) => !taken.has(i);
    const same = config.waivers.flatMap((w, i) => (w.tool === f.tool && free(i) ? [i] : []));
    // Of its tool, the waiver of the rule its message names.
    const index = same.find((i) => f.message.includes(` ${config.waivers[i]?.rule} `)) ?? same[0];
    if (index !== undefined) taken.add(index);
    const line = index !== undefined ? config.lines[index] : undefined;
    return { file: config.file, line: line || 1 };
  };
}

/**
 * Workflow annotations on the class-list lines of the tools concerned, most severe first; a stale
 * waiver's on the config file, at the waiver, which is what to fix (the class list has no line
 * for it).
 */
export function annotationsOf(
  report: Report,
  classListText: string | undefined,
  file: string,
  config?: WaiverPlaces,
): Annotation[] {
  const found = keyedFindings(report).filter(({ finding }) => !finding.waived);
  found.sort((a, b) => bySeverity(a.finding, b.finding));
  const shown = found.slice(0, MAX_ANNOTATIONS);
  // Lines are looked up only for the findings shown (the class list may hold 10,000 tools).
  const lines =
    classListText !== undefined && shown.some(({ key }) => key !== undefined)
      ? toolLines(classListText)
      : undefined;
  const waiverAt = waiverPlacer(config);
  const out: Annotation[] = shown.map(({ finding: f, key }) => {
    const line = key !== undefined ? lines?.get(key) : undefined;
    const place =
      waiverAt(f) ??
      // A client-rule finding points at the settings file's rule.
      f.location ??
      (classListText !== undefined ? { file, line: line ?? 1 } : undefined);
    return {
      level: f.severity,
      message: findingText(f),
      props: { ...place, title: `mcp-annotation-auditor: ${f.rule}` },
    };
  });
  if (found.length > MAX_ANNOTATIONS)
    out.push({
      level: 'notice',
      message: `${found.length - MAX_ANNOTATIONS} more findings are in the job summary and the JSON report.`,
      props: {},
    });
  return out;
}

/**
 * Each level's annotation, named: a computed `core[level]` would make the bundler keep all of
 * @actions/core, getIDToken and the HTTP client it loads too.
 */
const ANNOTATE = { error: core.error, warning: core.warning, notice: core.notice } as const;

function annotate({ level, message, props }: Annotation): void {
  const { line, ...rest } = props;
  ANNOTATE[level](message, { ...rest, ...(line !== undefined ? { startLine: line } : {}) });
}

/** Writes the SARIF file, its folder too; a path that cannot be written fails the step, later. */
async function writeSarif(path: string, sarif: string, env: NodeJS.ProcessEnv): Promise<void> {
  try {
    const root = await repositoryRoot(env.GITHUB_WORKSPACE ?? process.cwd());
    await writeConfined(path, sarif, root, 'the SARIF file');
  } catch (error) {
    core.setFailed(
      `Could not write the SARIF file ${terminalSafe(path, 200)} (input sarif-file): ${terminalSafe(error instanceof AuditError ? describeError(error) : `${getErrorMessage(error)}.`, 600)} The summary and outputs are written; fix the path.`,
    );
  }
}

/** The config file's waivers with their lines, when the run found a stale one to point at. */
async function waiverPlaces(
  audited: Audited,
  context: ActionContext,
): Promise<WaiverPlaces | undefined> {
  const { report, settings } = audited;
  const { path, text } = context.config;
  if (!settings || text === undefined || !report.findings.some((f) => f.rule === 'stale-waiver'))
    return undefined;
  return {
    file: await repoRelative(path, context.env),
    waivers: settings.waivers,
    lines: await waiverLines(text),
  };
}

function summaryUrlOf(env: NodeJS.ProcessEnv): string | undefined {
  return env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID
    ? `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`
    : undefined;
}

/** Whether the inputs say which server to audit (else the config file at its default path does). */
function namesServer(context: ActionContext): boolean {
  const { overrides, configRequired } = context.inputs;
  return Boolean(overrides.command ?? overrides.url ?? configRequired);
}

/** What the comments say beside each server's report. */
function commentContext(audited: Audited, context: ActionContext): CommentContext {
  const { report, settings } = audited;
  const { inputs, updateCommand, env } = context;
  const approveLabel = settings?.approveLabel ?? inputs.overrides.approveLabel;
  const summaryUrl = summaryUrlOf(env);
  // The name to pin comes from this run's own audit, never from a report file's.
  const only = report.servers.length === 1 && !inputs.reportFile ? report.servers[0] : undefined;
  const command = only ? pinnedCommand(updateCommand, only) : updateCommand;
  return {
    failOn: report.failOn,
    classList: report.classList,
    runFindings: report.findings,
    // Never the report's: an instruction is built from this job's own inputs. A report-file
    // job that is not told the server's command says in words what to run.
    ...(!inputs.reportFile || namesServer(context) ? { updateCommand: command } : {}),
    ...(approveLabel !== undefined ? { approveLabel } : {}),
    ...(report.policies ? { policies: report.policies } : {}),
    ...(summaryUrl !== undefined ? { summaryUrl } : {}),
    ...(audited.clientRules ? { clientRules: audited.clientRules } : {}),
  };
}

/** A check's annotations and comments; notes for the job summary. */
async function publishCheck(
  audited: Audited,
  context: ActionContext,
  classListText: string | undefined,
): Promise<Posted> {
  const { report, settings, target, prNumber, classListRepoPath } = audited;
  if (settings) {
    const places = await waiverPlaces(audited, context);
    for (const a of annotationsOf(report, classListText, classListRepoPath, places)) annotate(a);
  }
  const none = (note: string): Posted => ({ ids: [], notes: [note] });
  if (prNumber === undefined) return none('Not a pull request: no comment.');
  if (context.inputs.comment === 'never') return none('Commenting is off (comment: never).');
  if (!target) {
    const message =
      'No github-token (or GITHUB_REPOSITORY): the report is in the job summary only.';
    core.notice(message);
    return none(message);
  }
  return postComments(report, commentContext(audited, context), context.inputs.comment, target);
}

/**
 * The summary and outputs come first: nothing that happens to the comment can lose them. Gives
 * the verdict line it printed.
 */
function writeResults(audited: Audited): string {
  const { report, reportPath } = audited;
  const counts = reportCounts(report);
  appendSummary(audited.summary ?? summaryOf(report));
  core.setOutput('result', report.mode === 'update' ? 'updated' : report.result);
  core.setOutput('error-count', counts.error);
  core.setOutput('warning-count', counts.warning);
  core.setOutput('notice-count', counts.notice);
  core.setOutput('changed-count', counts.changed);
  core.setOutput('tool-count', counts.tools);
  core.setOutput('report', reportPath);
  const verdict = verdictLine(report);
  logLine(verdict);
  return verdict;
}

/** Step three: what the audit (or the report file) found, everywhere it goes. */
export async function publish(
  outcome: Audited | GivenFailedRun,
  context: ActionContext,
): Promise<void> {
  if ('failedRun' in outcome) {
    const { failedRun: run, target, reportPath } = outcome;
    const eraOf = (server: string) => run.servers.find((s) => s.server === server)?.era;
    return commentFailedRun(run, target, reportPath, markersOf(run.policies, eraOf));
  }
  const { report, settings, classListRepoPath } = outcome;
  // What update wrote, counted from the file: a tool listed malformed keeps its reviewed entry.
  const classListText = settings
    ? await readFile(settings.classList, 'utf8').catch(() => undefined)
    : undefined;
  const verdict = writeResults(outcome);
  const { sarifFile, reportFile } = context.inputs;
  if (sarifFile)
    await writeSarif(
      sarifFile,
      renderSarif(report, classListText, classListRepoPath, VERSION),
      context.env,
    );
  const posted =
    report.mode === 'check' ? await publishCheck(outcome, context, classListText) : undefined;
  if (posted?.notes.length) appendSummary(posted.notes.map((n) => `> ${n}`).join('\n'));
  core.setOutput('comment-id', (posted?.ids ?? []).join(','));
  // A report-file job did its part by commenting: the PR's own run is the check that fails.
  if (report.mode === 'check' && report.result === 'failed' && !reportFile) {
    const failing = allFindings(report).filter((f) => !f.waived).length;
    core.setFailed(`${verdict} ${failing} finding(s); see the job summary.`);
  }
}
