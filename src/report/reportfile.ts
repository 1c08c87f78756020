import type { ClaudeCodeDecision } from '../clients/client-rules.js';
import { readFile } from 'node:fs/promises';
import * as z from 'zod/v4';
import { lazily } from '../lazy.js';
import type { AuditedTool, Report, ServerReport } from '../audit.js';
import { fullToolName, type ToolRecord } from '../core/classlist.js';
import type { ToolChange } from '../core/diff.js';
import { AuditError, getErrorMessage } from '../errors.js';
import type { Finding } from '../core/findings.js';
import { POLICIES } from '../config/defaults.js';
import type { FailedRun } from './render.js';
import { RULE_IDS } from '../core/rules.js';

/*
 * A JSON report written by an earlier run (the CLI's --format json, the action's `report`
 * output), read back so that a trusted workflow_run job can comment on a fork's PR without
 * running the fork's code. The file came from that untrusted run: it is validated here, and its
 * text is escaped by the renderers like any server text.
 */

/**
 * The report's schema; built only for a report file. It takes whatever an audit can write: no
 * caps of its own on texts or lists (a description as long as a listing line, more findings
 * than tools), so the only bound is the file's, a JavaScript string's longest (about 512 MiB).
 * The renderers bound every text they print.
 */
const reportSchema = lazily(() => {
  const text = z.string();
  const hintState = z.strictObject({
    declared: z.boolean(),
    value: z.boolean().optional(),
    effective: z.boolean(),
  });
  const hints = z.strictObject({
    readOnlyHint: hintState,
    destructiveHint: hintState,
    idempotentHint: hintState,
    openWorldHint: hintState,
  });
  const recorded = z.union([z.boolean(), z.literal('absent')]);
  const recordedHints = z.strictObject({
    readOnlyHint: recorded,
    destructiveHint: recorded,
    idempotentHint: recorded,
    openWorldHint: recorded,
  });
  const cls = z.enum(['read', 'edit', 'delete']);
  const reach = z.enum(['open', 'closed']);
  const titleSource = z.enum(['tool', 'annotations', 'none']);
  const side = z
    .looseObject({ class: cls, reach, hints: recordedHints, title: text, titleSource })
    .nullable();
  const hintName = z.enum(['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint']);
  const severity = z.enum(['error', 'warning', 'notice']);

  const policies = z.array(z.enum(POLICIES)).optional();
  const era = z.enum(['legacy', 'modern', 'both']);

  // An audit that could not run: its message, and the servers whose comments it concerns.
  const failed = z.looseObject({
    schemaVersion: z.literal(1),
    mode: z.literal('check'),
    result: z.literal('error'),
    error: text,
    policies,
    servers: z.array(z.looseObject({ server: text, era: era.optional() })),
  });

  // updateCommand and each finding's fix are read by nobody: they are instructions, and an
  // instruction is never taken from the report (the comment builds its own from this job's inputs).
  const report = z.looseObject({
    schemaVersion: z.literal(1),
    mode: z.literal('check'),
    result: z.enum(['passed', 'failed']),
    failOn: z.enum(['error', 'warning', 'notice', 'never']),
    classList: text,
    policies,
    servers: z.array(
      z.looseObject({
        server: text,
        target: text,
        era,
        stdoutNoise: z.array(text).optional(),
      }),
    ),
    tools: z.array(
      z.looseObject({
        server: text,
        name: text,
        fullName: text,
        title: text,
        titleSource,
        class: cls,
        reach,
        hints,
        description: text.optional(),
        claudeCode: z
          .strictObject({
            decision: z.enum(['allow', 'ask', 'deny', 'unset']),
            rule: text.optional(),
            file: text.optional(),
            line: z.number().int().positive().optional(),
          })
          .optional(),
      }),
    ),
    findings: z.array(
      z.looseObject({
        server: text.nullable(),
        rule: z.enum(RULE_IDS as [string, ...string[]]),
        severity,
        tool: text.optional(),
        message: text,
        hints: z.array(hintName).optional(),
        waived: z.looseObject({ reason: text, expires: text.optional() }).optional(),
        approved: z.boolean().optional(),
        location: z.strictObject({ file: text, line: z.number().int().positive() }).optional(),
      }),
    ),
    changes: z.array(
      z.looseObject({
        server: text,
        kind: z.enum(['added', 'removed', 'renamed', 'changed']),
        name: text,
        tool: text,
        renamedFrom: text.optional(),
        before: side,
        after: side,
        hints: z
          .array(z.strictObject({ hint: hintName, before: recorded, after: recorded }))
          .max(4),
      }),
    ),
  });
  return { report, failed };
});
type ReportSide = z.infer<ReturnType<typeof reportSchema>['report']>['changes'][number]['before'];

/**
 * Rebuilds a Report from the JSON of an earlier run, or the FailedRun of one that could not
 * audit; an AuditError says what is wrong.
 */
export function parseReport(json: string, path: string): Report | FailedRun {
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch (error) {
    throw new AuditError(
      `The report ${path} is not JSON: ${getErrorMessage(error)}.`,
      'Pass the file the audit step wrote (its report output).',
    );
  }
  // Only a check judges what a PR changes: a list or update report has nothing to comment on.
  const mode = (data as { mode?: unknown } | null)?.mode;
  if (mode === 'list' || mode === 'update')
    throw new AuditError(
      `The report ${path} was written by ${mode}, not check: it holds no verdict on the PR.`,
      'Have the step that writes the report run the check (the action in check mode, or mcp-annotation-auditor check --format json).',
    );
  const checked = <T>(parsed: z.ZodSafeParseResult<T>): T => {
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    throw new AuditError(
      `The report ${path} is not a report of mcp-annotation-auditor: ${issue ? `${issue.path.join('.') || 'top level'}: ${issue.message}` : 'invalid'}.`,
      'Pass the JSON report the audit step wrote, from the same version of the action.',
    );
  };
  const schemas = reportSchema();
  if ((data as { result?: unknown } | null)?.result === 'error') {
    const f = checked(schemas.failed.safeParse(data));
    return {
      mode: f.mode,
      error: f.error,
      ...(f.policies ? { policies: f.policies } : {}),
      servers: f.servers.map((s) => ({
        server: s.server,
        ...(s.era !== undefined ? { era: s.era } : {}),
      })),
    };
  }
  const r = checked(schemas.report.safeParse(data));
  const servers: ServerReport[] = r.servers.map((s) => ({
    server: s.server,
    target: s.target,
    era: s.era,
    stdoutNoise: s.stdoutNoise ?? [],
    tools: r.tools
      .filter((t) => t.server === s.server)
      .map((t): AuditedTool => ({
        name: t.name,
        fullName: t.fullName,
        title: t.title,
        titleSource: t.titleSource,
        class: t.class,
        reach: t.reach,
        hints: t.hints,
        schemaHash: '',
        ...(t.description !== undefined ? { description: t.description } : {}),
        ...(t.claudeCode ? { claudeCode: claudeCodeOf(t.claudeCode) } : {}),
      })),
    findings: r.findings.filter((f) => f.server === s.server).map(toFinding),
    changes: r.changes
      .filter((c) => c.server === s.server)
      .map((c): ToolChange => {
        const prefix = fullToolName(s.server, '');
        const oldTool = c.renamedFrom?.startsWith(prefix)
          ? c.renamedFrom.slice(prefix.length)
          : c.tool;
        const record = (x: NonNullable<ReportSide>, tool: string): ToolRecord => ({
          server: s.server,
          tool,
          class: x.class,
          reach: x.reach,
          hints: x.hints,
          title: x.title,
          titleSource: x.titleSource,
          schema: '',
        });
        const change: ToolChange = {
          kind: c.kind,
          name: c.name,
          tool: c.tool,
          hints: c.hints,
          titleChanged: Boolean(
            c.before &&
            c.after &&
            (c.before.title !== c.after.title || c.before.titleSource !== c.after.titleSource),
          ),
        };
        if (c.renamedFrom !== undefined) change.renamedFrom = c.renamedFrom;
        if (c.before) change.before = record(c.before, oldTool);
        if (c.after) change.after = record(c.after, c.tool);
        return change;
      }),
  }));
  return {
    mode: r.mode,
    result: r.result,
    failOn: r.failOn,
    classList: r.classList,
    ...(r.policies ? { policies: r.policies } : {}),
    servers,
    findings: r.findings.filter((f) => f.server === null).map(toFinding),
  };
}

/** A tool's Claude Code decision as read back, without the keys zod leaves undefined. */
function claudeCodeOf(c: {
  decision: ClaudeCodeDecision['decision'];
  rule?: string | undefined;
  file?: string | undefined;
  line?: number | undefined;
}): ClaudeCodeDecision {
  const out: ClaudeCodeDecision = { decision: c.decision };
  if (c.rule !== undefined) out.rule = c.rule;
  if (c.file !== undefined) out.file = c.file;
  if (c.line !== undefined) out.line = c.line;
  return out;
}

function toFinding(f: {
  rule: string;
  severity: Finding['severity'];
  tool?: string | undefined;
  message: string;
  hints?: Finding['hints'];
  waived?: { reason: string; expires?: string | undefined } | undefined;
  approved?: boolean | undefined;
  location?: { file: string; line: number } | undefined;
}): Finding {
  const out: Finding = {
    rule: f.rule as Finding['rule'],
    severity: f.severity,
    message: f.message,
  };
  if (f.tool !== undefined) out.tool = f.tool;
  if (f.location !== undefined) out.location = { file: f.location.file, line: f.location.line };
  if (f.hints !== undefined) out.hints = f.hints;
  if (f.waived !== undefined)
    out.waived = {
      reason: f.waived.reason,
      ...(f.waived.expires !== undefined ? { expires: f.waived.expires } : {}),
    };
  if (f.approved !== undefined) out.approved = f.approved;
  return out;
}

export async function readReportFile(path: string): Promise<Report | FailedRun> {
  let json: string;
  try {
    json = await readFile(path, 'utf8');
  } catch (error) {
    throw new AuditError(
      `Could not read the report ${path}: ${getErrorMessage(error)}.`,
      'Check the report-file input: the path of the downloaded artifact.',
    );
  }
  return parseReport(json, path);
}
