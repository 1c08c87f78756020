import type * as z from 'zod/v4';
import { fullToolName, type ToolRecord } from '../core/classlist.js';
import type { Finding } from '../core/findings.js';
import { AuditError, getErrorMessage } from '../errors.js';
import { terminalSafe } from '../escape.js';
import { reportSchemas, type FailedRun } from './json.js';
import type { AuditedTool, Report, ReportedChange, ServerReport } from './report.js';

/*
 * A JSON report written by an earlier run (the CLI's --format json, the action's `report`
 * output), read back so that a trusted workflow_run job can comment on a fork's PR without
 * running the fork's code. The file came from that untrusted run: it is validated against the
 * one schema the writer uses (json.ts), bounded there, and its text is escaped by the renderers
 * like any server text. What it says to do (the update command, each finding's fix) is never
 * read: the comment builds its instructions from this job's own inputs.
 */

type Parsed = z.output<ReturnType<typeof reportSchemas>['report']>;
type ParsedTool = Parsed['tools'][number];
type ParsedChange = Parsed['changes'][number];
type ParsedFinding = Parsed['findings'][number];

/** What a report file that is not one gets: the field at fault, and what to pass instead. */
function notAReport(path: string, where: string, problem: string): AuditError {
  return new AuditError(
    `The report ${path} is not a report of mcp-annotation-auditor: ${where}: ${problem}.`,
    'Pass the JSON report the audit step wrote, from the same version of the action.',
  );
}

function checked<T>(parsed: z.ZodSafeParseResult<T>, path: string): T {
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw notAReport(
    path,
    issue?.path.map(String).join('.') || 'top level',
    issue?.message ?? 'invalid',
  );
}

/**
 * Rebuilds a Report from the JSON of an earlier run, or the FailedRun of one that could not
 * audit; an AuditError names the field that is wrong.
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
  const schemas = reportSchemas();
  if ((data as { result?: unknown } | null)?.result === 'error') {
    const { mode, error, policies, servers } = checked(schemas.failed.safeParse(data), path);
    return { mode, error, ...(policies ? { policies } : {}), servers };
  }
  const r = checked(schemas.report.safeParse(data), path);
  if (r.result === 'listed') throw notAReport(path, 'result', 'a check is passed or failed');
  const names = new Set<string>();
  // An audit reports each server once: a second entry would be a second comment to the PR.
  r.servers.forEach(({ server }, i) => {
    if (names.has(server))
      throw notAReport(
        path,
        `servers.${i}.server`,
        `"${terminalSafe(server, 64)}" is listed twice`,
      );
    names.add(server);
  });
  // An entry of no listed server would be dropped unseen: a finding hidden from the comment.
  for (const [field, entries] of [
    ['tools', r.tools],
    ['findings', r.findings],
    ['changes', r.changes],
  ] as const)
    entries.forEach((e, i) => {
      if (e.server !== null && !names.has(e.server))
        throw notAReport(
          path,
          `${field}.${i}.server`,
          `no server "${terminalSafe(e.server, 64)}" in servers`,
        );
    });
  return {
    mode: r.mode,
    result: r.result,
    failOn: r.failOn,
    classList: r.classList,
    ...(r.policies ? { policies: r.policies } : {}),
    servers: serversOf(r),
    findings: r.findings.filter((f) => f.server === null).map(findingOf),
    ...(r.firstRun ? { firstRun: true } : {}),
    ...(r.removedServers ? { removedServers: r.removedServers } : {}),
  };
}

/** The value without the fields named: those a report file carries but the Report does not take. */
function omit<T extends object, K extends keyof T>(value: T, ...keys: K[]): Omit<T, K> {
  const out = { ...value };
  for (const key of keys) delete out[key];
  return out;
}

/** Each server with its tools, findings and changes: one pass over each list, not one a server. */
function serversOf(r: Parsed): ServerReport[] {
  const byServer = new Map<string, ServerReport>(
    r.servers.map((s) => [
      s.server,
      { ...omit(s, 'counts'), tools: [], findings: [], changes: [] },
    ]),
  );
  const prefixes = serverPrefixes(r.servers.map((s) => s.server));
  for (const t of r.tools) byServer.get(t.server)?.tools.push(toolOf(t));
  for (const f of r.findings)
    if (f.server !== null) byServer.get(f.server)?.findings.push(findingOf(f));
  for (const c of r.changes) byServer.get(c.server)?.changes.push(changeOf(c, prefixes));
  return [...byServer.values()];
}

/** The report's servers by the prefix of their tools' full names (`mcp__<server>__`). */
function serverPrefixes(servers: string[]): Map<string, string> {
  return new Map(servers.map((s) => [fullToolName(s, ''), s]));
}

function toolOf(t: ParsedTool): AuditedTool {
  return omit(t, 'server', 'openWorld');
}

/** A finding as read back: without its fix, an instruction the report file does not give. */
function findingOf(f: ParsedFinding): Finding {
  return omit(f, 'server', 'fix');
}

/**
 * The server and tool a rename's old full name (`mcp__<server>__<old>`) names: this server's,
 * or, for a tool moved between servers, the longest name of another server in the report that
 * prefixes it (server and tool names may both hold "__"); else this server and the same tool.
 */
function oldSide(c: ParsedChange, prefixes: Map<string, string>): { server: string; tool: string } {
  const from = c.renamedFrom;
  if (from === undefined) return { server: c.server, tool: c.tool };
  const own = fullToolName(c.server, '');
  if (from.startsWith(own)) return { server: c.server, tool: from.slice(own.length) };
  // The longest prefix first: each place in the name where a `__` ends one.
  for (let end = from.length; end >= 2; end -= 1) {
    if (!from.startsWith('__', end - 2)) continue;
    const server = prefixes.get(from.slice(0, end));
    if (server !== undefined) return { server, tool: from.slice(end) };
  }
  return { server: c.server, tool: c.tool };
}

function changeOf(c: ParsedChange, prefixes: Map<string, string>): ReportedChange {
  const { server, before, after, probable, ...change } = c;
  const old = oldSide(c, prefixes);
  const record = (
    side: NonNullable<ParsedChange['before']>,
    at: { server: string; tool: string },
  ): ToolRecord => ({
    ...at,
    ...side,
  });
  return {
    ...change,
    ...(probable ? { probable } : {}),
    ...(before ? { before: record(before, old) } : {}),
    ...(after ? { after: record(after, { server, tool: c.tool }) } : {}),
  };
}
