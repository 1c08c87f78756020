import * as z from 'zod/v4';
import { lazily } from '../lazy.js';
import { DECISIONS } from '../clients/claude-code/permissions.js';
import { CLIENT_DECISIONS, CLIENT_ID } from '../clients/client.js';
import type { ToolRecord } from '../core/classlist.js';
import { ERA_SETTINGS } from '../core/eras.js';
import type { Finding } from '../core/findings.js';
import { FAIL_ON_LEVELS, RULE_IDS, SEVERITIES } from '../core/rules.js';
import { shapes } from '../core/schemas.js';
import { POLICIES, type Policy } from '../core/policy-names.js';
import type { EraSetting } from '../core/eras.js';
import {
  countsOf,
  MODES,
  reportCounts,
  type AuditedTool,
  type Mode,
  type Report,
  type ReportedChange,
  type ServerReport,
} from './report.js';

/*
 * The JSON report (`--format json`, the action's `report` output): a public interface, documented
 * in the README, whose fields are only ever added. One schema describes it: renderJson writes
 * objects of its type, and parseReport (reportfile.ts) reads a report file back through it.
 */

/**
 * The longest text a report file may hold in one field, and the most entries in one list. An
 * audit writes far less (descriptions are cut at 4,000 characters, listings stop at 128 MiB); a
 * report file, written by the PR's own run, is bounded here before anything renders it.
 */
export const MAX_REPORT_TEXT = 1 << 20;
export const MAX_REPORT_ITEMS = 1_000_000;

/** The bounded texts and lists every part of the report is made of, and its counts. */
function parts() {
  const text = z.string().max(MAX_REPORT_TEXT);
  const list = <T extends z.ZodType>(item: T) => z.array(item).max(MAX_REPORT_ITEMS);
  const count = z.number().int().nonnegative();
  const counts = z.strictObject({
    tools: count,
    read: count,
    edit: count,
    delete: count,
    error: count,
    warning: count,
    notice: count,
    waived: count,
    changed: count,
  });
  return { text, list, count, counts };
}
type Parts = ReturnType<typeof parts>;

function serverSchema({ text, list, counts }: Parts) {
  return z.strictObject({
    server: text,
    serverInfo: z.strictObject({ name: text, version: text.optional() }).optional(),
    target: text,
    era: z.enum(ERA_SETTINGS),
    counts,
    // Lines on stdout that were not JSON-RPC (a stdio server must log to stderr).
    stdoutNoise: list(text),
    unpinnedName: text.optional(),
    renamedFrom: text.optional(),
    malformedNames: list(text).optional(),
  });
}

function toolSchema(p: Parts) {
  const { text } = p;
  const { toolClass, reach, titleSource, hints } = shapes();
  return z.strictObject({
    server: text,
    name: text,
    fullName: text,
    title: text,
    titleSource,
    annotationsTitle: text.optional(),
    class: toolClass,
    reach,
    openWorld: z.boolean(),
    hints,
    description: text.optional(),
    schemaHash: text,
    pin: pinSchema(p).optional(),
    claudeCode: z
      .strictObject({
        decision: z.enum([...DECISIONS, 'unset']),
        rule: text.optional(),
        file: text.optional(),
        line: z.number().int().positive().optional(),
      })
      .optional(),
    clients: z.record(z.string().regex(CLIENT_ID), verdictSchema(p)).optional(),
  });
}

/** What one client decides for a tool (tools[].clients, changes[].clients). */
function verdictSchema({ text }: Parts) {
  return z.strictObject({
    decision: z.enum(CLIENT_DECISIONS),
    rule: text.optional(),
    file: text.optional(),
    line: z.number().int().positive().optional(),
    byClient: text.optional(),
  });
}

function findingSchema({ text }: Parts) {
  return z.strictObject({
    server: text.nullable(),
    rule: z.enum(RULE_IDS as [Finding['rule'], ...Finding['rule'][]]),
    severity: z.enum(SEVERITIES),
    tool: text.optional(),
    message: text,
    fix: text.optional(),
    hints: z.array(shapes().hintName).max(4).optional(),
    waived: z.strictObject({ reason: text, expires: text.optional() }).optional(),
    approved: z.boolean().optional(),
    location: z.strictObject({ file: text, line: z.number().int().positive() }).optional(),
  });
}

/** A tool's pin as the class list records it (see core/pins.ts). */
function pinSchema({ text }: Parts) {
  return z.strictObject({
    description: text,
    descriptionDigest: text,
    inputSchemaDigest: text,
    inputSchema: text.optional(),
  });
}

function changeSchema(p: Parts) {
  const { text, count } = p;
  const { toolClass, reach, titleSource, hintName, recordedHint, recordedHints } = shapes();
  const side = z
    .strictObject({
      class: toolClass,
      reach,
      hints: recordedHints,
      title: text,
      titleSource,
      schema: text,
      reason: text.optional(),
      pin: pinSchema(p).optional(),
    })
    .nullable();
  const move = z.strictObject({ hint: hintName, before: recordedHint, after: recordedHint });
  return z.strictObject({
    server: text,
    kind: z.enum(['added', 'removed', 'renamed', 'changed']),
    name: text,
    tool: text,
    renamedFrom: text.optional(),
    probable: z.literal(true).optional(),
    before: side,
    after: side,
    hints: z.array(move).max(4),
    titleChanged: z.boolean(),
    schemaChanged: z.literal(true).optional(),
    descriptionChanged: z.strictObject({ before: text, after: text }).optional(),
    inputSchemaChanged: z
      .strictObject({ paths: z.array(text).max(20).optional(), more: count.optional() })
      .optional(),
    // Each client's decision against the base record and the head's (a class or hint change).
    clients: z
      .record(
        z.string().regex(CLIENT_ID),
        z.strictObject({ before: verdictSchema(p), after: verdictSchema(p) }),
      )
      .optional(),
  });
}

/** The report's schemas; built only to read a report file (the writer needs only their types). */
export const reportSchemas = lazily(() => {
  const p = parts();
  const { text, list, count, counts } = p;
  const policies = z.array(z.enum(POLICIES)).max(POLICIES.length).optional();
  const report = z.strictObject({
    schemaVersion: z.literal(1),
    mode: z.enum(MODES),
    // list judges nothing: "passed" would read as a verdict on findings it does not weigh.
    result: z.enum(['passed', 'failed', 'listed']),
    failOn: z.enum(FAIL_ON_LEVELS),
    classList: text,
    policies,
    counts,
    servers: list(serverSchema(p)),
    tools: list(toolSchema(p)),
    findings: list(findingSchema(p)),
    changes: list(changeSchema(p)),
    firstRun: z.literal(true).optional(),
    removedServers: list(text).optional(),
    classListWritten: z.boolean().optional(),
    written: z.strictObject({ entries: count, kept: count }).optional(),
    // An instruction: written for people and scripts, never read back (see parseReport).
    updateCommand: text.optional(),
  });
  // An audit that could not run: its message, and the servers whose comments it concerns.
  const failed = z.strictObject({
    schemaVersion: z.literal(1),
    mode: z.enum(MODES),
    result: z.literal('error'),
    error: text,
    policies,
    counts,
    servers: list(z.strictObject({ server: text, era: z.enum(ERA_SETTINGS).optional() })),
    tools: z.tuple([]),
    findings: z.tuple([]),
    changes: z.tuple([]),
  });
  return { report, failed };
});

type Schemas = ReturnType<typeof reportSchemas>;
export type ReportJson = z.input<Schemas['report']>;
export type FailedRunJson = z.input<Schemas['failed']>;
type SideJson = ReportJson['changes'][number]['before'];

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

function sideJson(r: ToolRecord | undefined): SideJson {
  if (!r) return null;
  const { class: cls, reach, hints, title, titleSource, schema, reason, pin } = r;
  return { class: cls, reach, hints, title, titleSource, schema, reason, pin };
}

function changeJson(server: string, c: ReportedChange): ReportJson['changes'][number] {
  // Every field of the change (the round-trip test holds the two together), with its records as
  // the JSON writes them.
  return {
    server,
    ...c,
    probable: c.probable ? true : undefined,
    schemaChanged: c.schemaChanged ? true : undefined,
    before: sideJson(c.before),
    after: sideJson(c.after),
  };
}

function toolJson(server: string, t: AuditedTool): ReportJson['tools'][number] {
  return {
    server,
    name: t.name,
    fullName: t.fullName,
    title: t.title,
    titleSource: t.titleSource,
    annotationsTitle: t.annotationsTitle,
    class: t.class,
    reach: t.reach,
    openWorld: t.reach === 'open',
    hints: t.hints,
    description: t.description,
    schemaHash: t.schemaHash,
    pin: t.pin,
    claudeCode: t.claudeCode,
    clients: t.clients,
  };
}

function findingJson(server: string | null, f: Finding): ReportJson['findings'][number] {
  const { rule, severity, tool, message, fix, hints, waived, approved, location } = f;
  return { server, rule, severity, tool, message, fix, hints, waived, approved, location };
}

function serverJson(s: ServerReport): ReportJson['servers'][number] {
  return {
    server: s.server,
    serverInfo: s.serverInfo,
    target: s.target,
    era: s.era,
    counts: countsOf(s.tools, s.findings, s.changes),
    stdoutNoise: s.stdoutNoise,
    unpinnedName: s.unpinnedName,
    renamedFrom: s.renamedFrom,
    malformedNames: s.malformedNames,
  };
}

/** The JSON text: keys whose value is undefined are left out (JSON.stringify drops them). */
const jsonText = (json: ReportJson | FailedRunJson) => `${JSON.stringify(json, null, 2)}\n`;

export function renderJson(report: Report): string {
  return jsonText({
    schemaVersion: 1,
    mode: report.mode,
    result: report.mode === 'list' ? 'listed' : report.result,
    failOn: report.failOn,
    classList: report.classList,
    policies: report.policies,
    counts: reportCounts(report),
    servers: report.servers.map(serverJson),
    tools: report.servers.flatMap((s) => s.tools.map((t) => toolJson(s.server, t))),
    findings: [
      ...report.servers.flatMap((s) => s.findings.map((f) => findingJson(s.server, f))),
      ...report.findings.map((f) => findingJson(null, f)),
    ],
    changes: report.servers.flatMap((s) => s.changes.map((c) => changeJson(s.server, c))),
    firstRun: report.firstRun ? true : undefined,
    removedServers: report.removedServers,
    classListWritten: report.classListWritten,
    written: report.written,
    updateCommand: report.updateCommand,
  });
}

/** The JSON report of a run that could not audit: result "error", no tools and no findings. */
export function renderFailedRun(run: FailedRun): string {
  return jsonText({
    schemaVersion: 1,
    mode: run.mode,
    result: 'error',
    error: run.error,
    policies: run.policies,
    counts: countsOf([], [], []),
    servers: run.servers,
    tools: [],
    findings: [],
    changes: [],
  });
}
