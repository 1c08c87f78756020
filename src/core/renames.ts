import { fullToolName, recordsOf, type ClassList, type ToolRecord } from './classlist.js';
import { finding, type Finding } from './findings.js';
import { plural } from './text.js';

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
  return [...counts].map(([server, n]) =>
    finding(
      'unrecorded-change',
      undefined,
      `The class list records ${plural(n, 'tool')} of server "${server}", but no audited server has that name (this run audited ${audited.map((a) => `"${a}"`).join(', ')}).`,
      {
        fix: `If the server was renamed, ${settings.servers.length === 1 ? `pin its name with --server-name ${server} (the server-name input)` : `give it back its name (its key in the config file)`}; otherwise remove its entries with \`${withPrune(updateCommand)}\` and commit ${settings.classList}.`,
      },
    ),
  );
}

/** The update command with --prune, which removes the entries of servers it does not audit. */
function withPrune(updateCommand: string): string {
  return updateCommand.replace(/(^|\s)update(\s|$)/, '$1update --prune$2');
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
  const findings = [...tools].map(([server, names]) =>
    finding(
      'server-removed',
      undefined,
      `The base class list records ${names.length} reviewed tool${names.length === 1 ? '' : 's'} of server "${server}" (${names.slice(0, 5).join(', ')}${names.length > 5 ? ', …' : ''}), but no audited server matches it by name or by its tools: this change removes them from review.`,
      {
        fix: `If the server was renamed, give it back its name (${settings.servers.length === 1 ? '--server-name, the server-name input' : 'its key in the config file'}) so its tools are compared one by one; if it is removed on purpose, approve with the approval label.`,
      },
    ),
  );
  return { names: [...tools.keys()], findings };
}

/** Check without a class list at HEAD: the first thing to do is to write one. */
export function noClassListFinding(classList: string, updateCommand: string): Finding {
  return finding('unrecorded-change', undefined, `There is no class list at ${classList} yet.`, {
    fix: `Run \`${updateCommand}\`, review the file, and commit ${classList}.`,
  });
}

/**
 * A server compared under the name the base records it by (`from`): said, so that a reviewer
 * sees the rename, with how to keep the name stable. `unnamed`: nothing named the server, so its
 * name came from the server itself.
 */
export function renameFinding(from: string, name: string, unnamed: boolean): Finding {
  return finding(
    'tool-renamed',
    undefined,
    unnamed
      ? `The server now calls itself "${name}"; the base class list records its tools under "${from}". They are compared as one server.`
      : `The base class list records this server's tools under "${from}", and no server of that name is audited now: "${name}" is taken as "${from}" renamed, and compared with it tool by tool.`,
    {
      fix: unnamed
        ? 'Pin the name with --server-name (the server-name input) so the class list keys stay stable.'
        : `If "${from}" was renamed on purpose, nothing more is needed; else give the server back its name (its key in the config file).`,
    },
  );
}
