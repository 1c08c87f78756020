import { fullToolName, recordsOf, type ClassList, type ToolRecord } from './classlist.js';
import type { Finding } from './findings.js';
import { runChecks } from './rules.js';

/*
 * Servers whose name changed or that went away: a renamed server is compared with the base's
 * entries under its old name, and a recorded server that no audited one matches is a finding,
 * so that neither hides its reviewed tools from the comparison.
 */

/** What these checks read of the settings: the servers configured, and whether all are audited. */
export interface RunScope {
  /** Each configured server's name, when configuration gives one. */
  servers: { name?: string }[];
  /** Only some of the configured servers are audited (--server). */
  partial: boolean;
  /** The class list's path, for messages. */
  classList: string;
}

/** What these checks read of a server's report: its name, and the name it was matched under. */
export interface AuditedServer {
  server: string;
  renamedFrom?: string;
}

/** The sorted values of a server's entries, joined: equal for two servers with equal tool sets. */
function toolSetKey(records: Iterable<ToolRecord>, field: 'tool' | 'schema'): string {
  return JSON.stringify([...records].map((r) => r[field]).sort());
}

/**
 * A server whose name changed (a renamed config key, or a reported name) would otherwise match
 * nothing in the base and hide every dropped hint as "added" tools. The base server it takes the
 * place of: one that no configured server is named after and whose tools have the same names, or
 * the same input schemas, as this server's; or, when one unnamed server is audited and the base
 * records exactly one server, that one. Its entries are the reference, re-keyed under the new
 * name (`from` is the name the base records, which the re-keyed entries no longer show).
 */
export function renamedServerRecords(
  base: ClassList | null,
  name: string,
  settings: RunScope,
  live: Map<string, ToolRecord>,
): { from: string; records: Map<string, ToolRecord> } | undefined {
  if (!base || recordsOf(base, name).size) return undefined;
  const configured = new Set(
    settings.servers.flatMap((s) => (s.name !== undefined ? [s.name] : [])),
  );
  const recorded = [...new Set([...base.tools.values()].map((r) => r.server))];
  const single = settings.servers.length === 1 && settings.servers[0]?.name === undefined;
  let from: string | undefined;
  if (single && recorded.length === 1) from = recorded[0];
  else if (live.size) {
    const [names, schemas] = [
      toolSetKey(live.values(), 'tool'),
      toolSetKey(live.values(), 'schema'),
    ];
    const matching = recorded.filter((other) => {
      if (configured.has(other)) return false;
      const records = [...recordsOf(base, other).values()];
      return toolSetKey(records, 'tool') === names || toolSetKey(records, 'schema') === schemas;
    });
    if (matching.length === 1) from = matching[0];
  }
  if (from === undefined) return undefined;
  return {
    from,
    records: new Map(
      [...recordsOf(base, from).values()].map((r) => [
        fullToolName(name, r.tool),
        { ...r, server: name },
      ]),
    ),
  };
}

/** Class-list servers that no audited server answers to: drift, unless only some were audited. */
export function staleServers(
  classList: ClassList | undefined,
  audited: string[],
  settings: RunScope,
  updateCommand: string,
): Finding[] {
  if (!classList || settings.partial) return [];
  const counts = new Map<string, number>();
  for (const r of classList.tools.values())
    if (!audited.includes(r.server)) counts.set(r.server, (counts.get(r.server) ?? 0) + 1);
  return runChecks('run', {
    unauditedServers: {
      servers: [...counts].map(([server, tools]) => ({ server, tools })),
      audited,
      single: settings.servers.length === 1,
      updateCommand,
      classList: settings.classList,
    },
  });
}

/**
 * Servers the base class list records that no audited server matches (by name, or as renamed):
 * their reviewed entries would leave unreviewed. One the class list at HEAD still records is
 * left to staleServers; a run of only some servers cannot tell.
 */
export function removedServers(
  base: ClassList | undefined | null,
  head: ClassList | undefined,
  reports: AuditedServer[],
  settings: RunScope,
): { names: string[]; findings: Finding[] } {
  if (!base || settings.partial) return { names: [], findings: [] };
  const matched = new Set(reports.flatMap((r) => [r.server, r.renamedFrom ?? r.server]));
  const atHead = new Set([...(head?.tools.values() ?? [])].map((r) => r.server));
  const tools = new Map<string, string[]>();
  for (const r of base.tools.values())
    if (!matched.has(r.server) && !atHead.has(r.server))
      tools.set(r.server, [...(tools.get(r.server) ?? []), r.tool]);
  const findings = runChecks('run', {
    removedServers: {
      servers: [...tools].map(([server, names]) => ({ server, tools: names })),
      single: settings.servers.length === 1,
    },
  });
  return { names: [...tools.keys()], findings };
}

/** Check without a class list at HEAD: the first thing to do is to write one. */
export function noClassListFindings(classList: string, updateCommand: string): Finding[] {
  return runChecks('run', { noClassList: { classList, updateCommand } });
}

/**
 * A server compared under the name the base records it by (`from`): said, so that a reviewer
 * sees the rename, with how to keep the name stable. `unnamed`: nothing named the server, so its
 * name came from the server itself.
 */
export function renameFindings(from: string, name: string, unnamed: boolean): Finding[] {
  return runChecks('run', { renamedServer: { from, name, unnamed } });
}
