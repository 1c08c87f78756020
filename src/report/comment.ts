import { countsOf, resultOf, type ServerReport } from './report.js';
import type { EraSetting } from '../core/eras.js';
import { POLICIES, type Policy } from '../core/policy-names.js';
import { DEFAULT_POLICIES } from '../core/policies.js';
import type { Finding } from '../core/findings.js';
import { codeSpanSafe } from '../escape.js';
import { changesTable, findingsTable, fitTable, inventoryTable, type Table } from './table.js';
import { plural } from '../core/text.js';
import type { FailOn } from '../core/rules.js';
import { NPX_COMMAND } from '../version.js';
import { ruleNotes, type RuleNotesContext } from '../clients/claude-code/rule-notes.js';
import { fixesMarkdown } from './markdown.js';
import { MODEL_TEXT_TITLE, modelTextSection } from './model-text.js';
import { clientChangeLines } from './client-changes.js';
import { STALE_TITLE, staleJustificationSection } from './justifications.js';

/** GitHub refuses comment bodies over 65,536 characters; we stay well below. */
export const COMMENT_LIMIT = 65_536;
const BUDGET = 60_000;

/** What tells apart runs on one server that a workflow can make (a matrix over them). */
export interface CommentVariant {
  policies?: readonly Policy[];
  era?: EraSetting;
}

/** Known names only, in one order: the same set is the same run, however it was written. */
const policyKey = (list: readonly Policy[]) =>
  POLICIES.filter((p) => list.includes(p)).join('+') || 'none';

/**
 * The hidden marker that finds our comment for one server configuration. Runs whose policies or
 * era differ from the default each get their own (`... notes policies=claude era=both -->`), so a
 * matrix over them keeps one comment per run; a default run keeps the plain marker, so the
 * comments of earlier versions are still found.
 */
export function commentMarker(server: string, variant: CommentVariant = {}): string {
  const parts = [server.replace(/[^A-Za-z0-9_-]/g, '_')];
  // A run with the default policies and era keeps the plain marker.
  const policies = variant.policies && policyKey(variant.policies);
  if (policies !== undefined && policies !== policyKey(DEFAULT_POLICIES))
    parts.push(`policies=${policies}`);
  if (variant.era && variant.era !== 'legacy') parts.push(`era=${variant.era}`);
  return `<!-- mcp-annotation-auditor:${parts.join(' ')} -->`;
}

export interface CommentContext {
  failOn: FailOn;
  classList: string;
  /**
   * Findings about the run, not one server (stale waivers, a recorded server no longer
   * configured): they count in every verdict.
   */
  runFindings: Finding[];
  /** How to accept a change; without it the comment says how in words (see renderComment). */
  updateCommand?: string;
  approveLabel?: string;
  /** The run's policies: with the server's era, they pick the comment's marker. */
  policies?: readonly Policy[];
  /** Where the full report is: the run's job summary. */
  summaryUrl?: string;
  /** With Claude Code settings checked: what each class change does to their rules. */
  clientRules?: RuleNotesContext;
}

/** Whether this server's result, with the run's own findings, fails the check. */
export function serverFailed(
  report: ServerReport,
  failOn: FailOn,
  runFindings: Finding[] = [],
): boolean {
  return resultOf([...report.findings, ...runFindings], failOn) === 'failed';
}

/** A table of the comment cut to fit `budget` characters, saying where the rest is. */
function fitCommentTable(table: Table, budget: number, what: string, summaryUrl?: string): string {
  const where = summaryUrl ? `[the job summary](${summaryUrl})` : 'the job summary';
  return fitTable(
    table,
    budget,
    (count) => `_…and ${count} more ${what}: see ${where} or the JSON report._`,
  );
}

/**
 * The sticky comment for one server: verdict, counts, class changes, findings, the inventory
 * (collapsed), then how to accept the change. All server text is escaped by the table renderers.
 */
export function renderComment(report: ServerReport, context: CommentContext): string {
  const findings = [...report.findings, ...context.runFindings];
  const counts = countsOf(report.tools, findings, report.changes);
  const failed = resultOf(findings, context.failOn) === 'failed';
  const server = codeSpanSafe(report.server, 64);
  const clean = !failed && counts.changed === 0 && findings.length === 0;
  const head = [
    serverMarker(report, context),
    `### ${failed ? '❌' : '✅'} MCP tool annotations for \`${server}\`: ${failed ? 'failed' : 'passed'}`,
    '',
    `**${plural(counts.tools, 'tool')}:** ${counts.read} read · ${counts.edit} edit · ${counts.delete} delete. **Findings:** ${plural(counts.error, 'error')} · ${plural(counts.warning, 'warning')} · ${plural(counts.notice, 'notice')}${counts.waived ? ` · ${counts.waived} waived` : ''}. **Changes:** ${counts.changed}.`,
    '',
  ];
  if (clean)
    head.push(
      'No class changes and no findings: the tool surface matches the reviewed class list.',
      '',
    );
  const run =
    context.updateCommand !== undefined
      ? `run \`${codeSpanSafe(context.updateCommand.replace(/`/g, "'"), 1_000)}\``
      : `run \`${NPX_COMMAND} update\` with the server's command line (after \`--\`) or config file, as the PR's workflow audits it,`;
  const accept = [
    '#### Accepting a change',
    '',
    `The reviewed classes live in \`${codeSpanSafe(context.classList, 200)}\`. To accept a change, ${run} and commit the file: reviewers (and CODEOWNERS) see exactly what changed in its diff.${context.approveLabel ? ` The \`${codeSpanSafe(context.approveLabel, 50)}\` label approves an intended dropped hint (\`hint-dropped\`) or relaxed class (\`class-relaxed\`), never a policy error: where a policy requires the hint, declare it (\`readOnlyHint: false\`, say) instead of removing it.` : ''}`,
    '',
  ];
  let budget = BUDGET - head.join('\n').length - accept.join('\n').length - 500;
  const sections: string[] = [];
  const add = (title: string, table: Table, what: string, share: number) => {
    const fitted = fitCommentTable(
      table,
      Math.max(2_000, Math.floor(budget * share)),
      what,
      context.summaryUrl,
    );
    sections.push(title, '', fitted, '');
    budget -= fitted.length + title.length + 4;
  };
  if (report.changes.length)
    add('#### Class changes', changesTable(report.changes), 'changes', 0.4);
  // Beside the class changes that made them false: which submitted justification to rewrite.
  const stale = staleJustificationSection(findings, report.changes, `#### ${STALE_TITLE}`);
  sections.push(...stale);
  budget -= stale.join('\n').length;
  const modelText = modelTextSection(
    report.changes,
    `#### ${MODEL_TEXT_TITLE}`,
    Math.max(4_000, Math.floor(budget * 0.3)),
  );
  sections.push(...modelText);
  budget -= modelText.join('\n').length;
  const notes = context.clientRules ? ruleNotes(report, context.clientRules) : [];
  if (notes.length) {
    sections.push('#### Client rules (Claude Code)', '', ...notes, '');
    budget -= notes.join('\n').length + 40;
  }
  const perClient = clientChangeLines(report.changes);
  if (perClient.length) {
    const title = '#### What the change does in each client';
    sections.push(title, '', ...perClient, '');
    budget -= perClient.join('\n').length + title.length + 4;
  }
  if (findings.length) add('#### Findings', findingsTable(findings), 'findings', 0.5);
  const fixes = fixesMarkdown(findings, '#### What to do');
  sections.push(...fixes);
  budget -= fixes.join('\n').length;
  if (report.tools.length) {
    const inventory = fitCommentTable(
      inventoryTable(report.tools),
      Math.max(2_000, budget),
      'tools',
      context.summaryUrl,
    );
    sections.push(
      `<details><summary>All ${counts.tools} tools</summary>`,
      '',
      inventory,
      '',
      '</details>',
      '',
    );
  }
  const body = [...head, ...sections, ...accept].join('\n');
  return body.length <= COMMENT_LIMIT
    ? body
    : `${body.slice(0, COMMENT_LIMIT - 200)}\n\n_Cut to fit GitHub's comment limit; see the job summary._\n`;
}

export function variantOf(context: CommentContext): CommentVariant {
  return context.policies ? { policies: context.policies } : {};
}

/** The marker of this server's comment in a run with this context. */
export function serverMarker(report: ServerReport, context: CommentContext): string {
  return commentMarker(report.server, { ...variantOf(context), era: report.era });
}

/**
 * The sticky comment of a server the base class list records under a name this run no longer
 * audits: renamed (`now`, the name it is audited under) or removed. Updated, never created, so
 * an old verdict does not stay on the PR beside the new one.
 */
export function renderRetiredComment(
  marker: string,
  server: string,
  now: string | undefined,
  failed: boolean,
): string {
  const name = codeSpanSafe(server, 64);
  const verdict = failed ? '❌' : '✅';
  return [
    marker,
    now !== undefined
      ? `### ${verdict} MCP tool annotations for \`${name}\`: now audited as \`${codeSpanSafe(now, 64)}\``
      : `### ${verdict} MCP tool annotations for \`${name}\`: no longer audited`,
    '',
    now !== undefined
      ? `The base class list records this server as \`${name}\`; this run audits it as \`${codeSpanSafe(now, 64)}\` and compares its tools one by one. Its result is in the comment for \`${codeSpanSafe(now, 64)}\`.`
      : `The base class list records this server, but no audited server matches it (\`server-removed\`): its reviewed tools leave review with this change. The run ${failed ? 'failed' : 'passed'}.`,
    '',
  ].join('\n');
}
