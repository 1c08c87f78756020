import { relative, resolve, sep } from 'node:path';
import {
  fullToolName,
  normalizeServerName,
  parseClassList,
  recordsOf,
  serializeClassList,
  type BaseText,
  type ClassList,
  type ToolRecord,
} from './core/classlist.js';
import type { ServerSettings, Settings } from './config/settings.js';
import {
  changeFindings,
  diffRecords,
  driftFindings,
  isSchemaOnly,
  pairStartChanges,
} from './core/diff.js';
import { AuditError } from './errors.js';
import { confinedPath, repositoryRoot, writeConfined, type WriteRoot } from './confined.js';
import { readClassList } from './files.js';
import { activeGit } from './git.js';
import type { ClassifiedTool } from './core/classify.js';
import type { Finding } from './core/findings.js';
import { auditListings, liveRecords } from './core/listings.js';
import {
  listTools,
  startPortKey,
  type Connect,
  type Listing,
  type ProtocolEra,
} from './server/listing.js';
import { runPooled } from './pool.js';
import { stopEveryServer } from './server/early.js';
import { redactArgs, redactUrl } from './redact.js';
import {
  noClassListFindings,
  removedServers,
  renamedServerRecords,
  renameFindings,
  staleServers,
} from './core/renames.js';
import type { ClientRulesInput } from './clients/claude-code/client-rules.js';
import { applyClients, putClaudeCodeDecisions, type ClientsInput } from './audit-clients.js';
import { applyJustifications, type JustificationsInput } from './audit-justifications.js';
import { pairMoves } from './core/moves.js';
import { recordedOf, updatedClassList, withoutMalformed } from './core/update.js';
import { applyPolicy } from './core/waivers.js';
import {
  allFindings,
  resultOf,
  type AuditedTool,
  type Mode,
  type Report,
  type ServerReport,
} from './report/report.js';
import { NPX_COMMAND } from './version.js';
import { adviseFixes } from './core/advice.js';
import { withJsonPositions } from './core/jsontext.js';
import { pinnedCommand } from './config/pin-name.js';

/*
 * The orchestrator: for each configured server, list its tools (server/), audit them (core/),
 * and compare them with the class list and the base; then the run's verdict, or for update the
 * class list written. What it returns is the report every output renders (report/).
 */

/** The update command drift messages suggest when the caller gives none. */
const DEFAULT_UPDATE_COMMAND = `${NPX_COMMAND} update`;

export interface AuditOptions {
  mode: Mode;
  /**
   * The base class list's text (null: no class list at the base), or undefined for no base. A
   * promise is still being read (a GitHub API request): each server waits for it only once its
   * tools are listed.
   */
  base?: BaseText | Promise<BaseText | undefined>;
  /**
   * The approval label is on the PR: approvable errors become notices. A promise is still being
   * read (the PR's labels, through the API): it is awaited once the servers are audited.
   */
  approved?: boolean | Promise<boolean>;
  /** How the user runs update, for drift messages. */
  updateCommand?: string;
  /** Today as YYYY-MM-DD, for waiver expiry. */
  today?: string;
  /** Claude Code settings files to check against the class list (check only). */
  clientRules?: ClientRulesInput;
  /** The other clients' committed configs to check against the class list (check only). */
  clients?: ClientsInput;
  /**
   * What reading the base found about the run itself: the PR's config relaxing the base
   * commit's (config-relaxed), a class list that moved (class-list-moved). For check.
   */
  baseFindings?: Finding[] | Promise<Finding[]>;
  /** OpenAI's hint justifications file, when the openai policy is on (check only). */
  justifications?: JustificationsInput;
  /** For update: remove the entries of servers this run did not audit (--prune). */
  prune?: boolean;
  /** For update: where the class list may be written (default: the CLI's repositoryRoot). */
  writeRoot?: WriteRoot | Promise<WriteRoot>;
  /**
   * How each server is reached; the default starts or fetches it. Tests pass one that connects
   * to an in-process server, so the whole engine runs without a process or a socket.
   */
  connect?: Connect;
}

/** The command line or URL, for people: only a URL's scheme, host and port; of a command line, only the words of a safe shape. */
export function describeTarget(server: ServerSettings): string {
  const t = server.target;
  return t.kind === 'stdio'
    ? redactArgs([t.spawn.command, ...t.spawn.args]).shown.join(' ')
    : redactUrl(t.url);
}

/**
 * The tools, each given its full name in place: they are this listing's own objects. Not copied:
 * a copy of each (Object.assign into a new object; a spread gave each copy a hidden class of its
 * own) was one more object a tool to build and keep for the whole run (some 3 ms of CPU at 10,000
 * tools), and tools of one shape that gain the same field share one new shape.
 */
function withFullNames(tools: ClassifiedTool[], server: string): AuditedTool[] {
  const audited = tools as AuditedTool[];
  for (const tool of audited) tool.fullName = fullToolName(server, tool.name);
  return audited;
}

/** A server listed and its tools audited: its report, and the class-list entries of what it listed. */
async function listServer(
  server: ServerSettings,
  settings: Settings,
  mode: Mode,
  connect?: Connect,
): Promise<{ report: ServerReport; live: Map<string, ToolRecord> }> {
  const eras: ProtocolEra[] = server.era === 'both' ? ['legacy', 'modern'] : [server.era];
  const listings: Listing[] = [];
  for (const era of eras)
    listings.push(await listTools(server.target, era, settings.limits, connect));
  const primary = listings[0] as Listing;
  const { tools, malformedNames, findings } = auditListings(
    listings,
    mode === 'update' ? [] : settings.policies,
  );
  const name = server.name ?? normalizeServerName(primary.serverInfo?.name ?? 'server');
  const report: ServerReport = {
    server: name,
    target: describeTarget(server),
    era: server.era,
    tools: withFullNames(tools, name),
    findings,
    changes: [],
    stdoutNoise: primary.stdoutNoise,
  };
  if (primary.serverInfo) report.serverInfo = primary.serverInfo;
  if (server.name === undefined) report.unpinnedName = primary.serverInfo?.name ?? '';
  if (malformedNames.length) report.malformedNames = malformedNames;
  return { report, live: liveRecords(name, tools) };
}

/** What check compares one server's live tools with. */
interface Comparison {
  server: ServerSettings;
  settings: Settings;
  /** The class list at HEAD, if there is one. */
  classList: ClassList | undefined;
  /** The base class list: null when the base has none, undefined when there is no base. */
  base: ClassList | undefined | null;
  live: Map<string, ToolRecord>;
  updateCommand: string;
}

/**
 * Check's comparison of one server: drift against the class list at HEAD, then what the PR
 * changes against the base (under the server's old name, when it was renamed).
 */
function compareServer(report: ServerReport, c: Comparison): void {
  const { settings, classList, base, live } = c;
  const head = recordedOf(classList, report);
  // Against HEAD a schema change is drift too (a notice): the hash recorded is what finds renames.
  const headChanges = classList ? diffRecords(head, live, { schema: true }) : [];
  report.findings.push(
    ...(classList
      ? driftFindings(headChanges, c.updateCommand, settings.classList)
      : noClassListFindings(settings.classList, c.updateCommand)),
  );
  const renamed = renamedServerRecords(base ?? null, report.server, settings, live);
  if (renamed) report.renamedFrom = renamed.from;
  // Without a base, the class list at HEAD is what the live server is compared to.
  const reference =
    base === undefined
      ? classList
        ? head
        : undefined
      : withoutMalformed(renamed?.records ?? recordsOf(base ?? undefined, report.server), report);
  if (renamed && reference?.size)
    report.findings.push(
      ...renameFindings(renamed.from, report.server, c.server.name === undefined),
    );
  if (reference) {
    // What the PR changes in the tool surface: a schema change alone is not one (spec §5).
    report.changes =
      reference === head
        ? headChanges.filter((change) => !isSchemaOnly(change))
        : diffRecords(reference, live);
    report.findings.push(...changeFindings(report.changes));
  }
}

async function auditServer(
  server: ServerSettings,
  settings: Settings,
  classList: ClassList | undefined,
  baseList: Promise<ClassList | undefined | null>,
  options: AuditOptions,
): Promise<ServerReport> {
  const { report, live } = await listServer(server, settings, options.mode, options.connect);
  // What update writes for this server: its changes are what the class list's diff will show.
  if (options.mode === 'update') report.changes = diffRecords(recordedOf(classList, report), live);
  if (options.mode !== 'check') return report;
  const base = await baseList;
  const updateCommand = pinnedCommand(options.updateCommand ?? DEFAULT_UPDATE_COMMAND, report);
  compareServer(report, { server, settings, classList, base, live, updateCommand });
  return report;
}

/**
 * Reads the class list at a git ref: `git show REF:./PATH`, with PATH relative to the folder git
 * runs in (an absolute path would name no file in the commit).
 */
export function readAtRef(ref: string, path: string, cwd?: string): Promise<string | null> {
  const inRepo = relative(resolve(cwd ?? '.'), resolve(cwd ?? '.', path))
    .split(sep)
    .join('/');
  return activeGit()
    .show(`${ref}:./${inRepo}`, cwd)
    .catch((error: Error) => {
      throw new AuditError(
        `Could not read ${path} at ${ref}: ${error.message.split('\n')[0]}.`,
        `Make sure the ref exists locally (a shallow checkout may need git fetch --depth=1 origin ${ref}).`,
      );
    });
}

/** A finished audit: its report, and when every process it started is gone. */
export interface AuditRun {
  report: Report;
  /** The class list as the run leaves the file: as read, or as update wrote it; none if none. */
  classList?: ClassList;
  /**
   * Settles once the servers, told to stop as their listings ended, have exited (or been
   * killed). Whoever prints or posts the report renders it meanwhile and awaits this first:
   * nothing reports while a process we started still runs.
   */
  settled: Promise<void>;
}

/**
 * The whole audit: start each server, list and classify its tools, check policies, compare with
 * the class list (and the base), and for update write the class list. On failure every process
 * is gone before the error is thrown.
 */
export async function runAudit(settings: Settings, options: AuditOptions): Promise<AuditRun> {
  let done: { report: Report; classList?: ClassList };
  try {
    done = await auditServers(settings, options);
  } catch (error) {
    await stopEveryServer();
    throw error;
  }
  const settled = stopEveryServer();
  // Awaited by the caller once it has rendered; until then a failure must not count as unhandled.
  settled.catch(() => undefined);
  return { ...done, settled };
}

/** Each configured server's key as written (`my.notes`), by its normalised name (my_notes). */
function writtenKeys(settings: Settings): Map<string, string> {
  const keys = new Map<string, string>();
  for (const s of settings.servers)
    if (s.name !== undefined && s.key !== undefined) keys.set(s.name, s.key);
  return keys;
}

/** The base class list, parsed once it is read: it fails now if it is here and does not parse. */
function baseList(
  settings: Settings,
  options: AuditOptions,
): Promise<ClassList | undefined | null> {
  const parseBase = (given: BaseText | undefined): ClassList | undefined | null =>
    given === undefined
      ? undefined
      : given.text === null
        ? null
        : parseClassList(given.text, given.file ?? `${settings.classList} at ${given.label}`);
  const given = options.base instanceof Promise ? options.base : Promise.resolve(options.base);
  // A broken base loads jsonc-parser to say where (withJsonPositions), while the server boots.
  const base = given.then((g) => withJsonPositions(() => parseBase(g)));
  // Awaited only after a listing: until then its failure must not count as unhandled.
  base.catch(() => undefined);
  if (options.baseFindings instanceof Promise) options.baseFindings.catch(() => undefined);
  return base;
}

/**
 * Every server's audit, `settings.concurrency` at a time, in configuration order whatever order
 * they finish in; HTTP servers the audit starts on one port take turns. A failure lets the audits
 * under way finish (and stop their servers); what it throws is the first failure in configuration
 * order, the one a run of one server after another would have met, and servers after it that
 * had not started are not started.
 */
async function auditEach(
  settings: Settings,
  audit: (server: ServerSettings) => Promise<ServerReport>,
): Promise<ServerReport[]> {
  const outcomes = await runPooled(settings.servers, audit, {
    limit: settings.concurrency,
    keyOf: (server) => startPortKey(server.target),
    stopAfterFailure: true,
  });
  const reports: ServerReport[] = [];
  for (const outcome of outcomes) {
    // A server never started comes after a failure, which is thrown first.
    if (outcome?.ok !== true) throw outcome?.error;
    reports.push(outcome.value);
  }
  return reports;
}

async function auditServers(
  settings: Settings,
  options: AuditOptions,
): Promise<{ report: Report; classList?: ClassList }> {
  // Update checks where it will write before any server starts, and before it reads the file.
  const root =
    options.mode === 'update' ? await (options.writeRoot ?? repositoryRoot()) : undefined;
  if (root) await confinedPath(settings.classList, root, 'the class list');
  const existing = await classListOf(settings.classList, options.mode);
  const base = baseList(settings, options);
  const servers = await auditEach(settings, (server) =>
    auditServer(server, settings, existing?.list, base, options),
  );
  const names = servers.map((s) => s.server);
  const repeated = names.find((n, i) => names.indexOf(n) !== i);
  if (repeated)
    throw new AuditError(
      `Two configured servers are both named "${repeated}" in the class list.`,
      'Give each server its own name (the key in the config file, or --server-name).',
    );
  const report: Report = {
    mode: options.mode,
    result: 'passed',
    failOn: settings.failOn,
    classList: settings.classList,
    policies: settings.policies,
    servers,
    findings: [],
  };
  if (options.mode === 'update') {
    // Written once every server is gone: one that lingers after its stop cannot replace it.
    await stopEveryServer();
    const next = await writeUpdate(report, existing, settings, {
      prune: options.prune === true,
      root: root as WriteRoot,
    });
    return { report, classList: next };
  }
  if (options.mode === 'check') await judge(report, existing?.list, await base, settings, options);
  return { report, ...(existing ? { classList: existing.list } : {}) };
}

/**
 * The class list as read, with its text only for update (which compares what it writes with it):
 * at 10,000 tools the text is 8 MiB that check would otherwise hold all through the audit.
 */
async function classListOf(
  path: string,
  mode: Mode,
): Promise<{ list: ClassList; text?: string } | undefined> {
  const read = await readClassList(path);
  return read && mode !== 'update' ? { list: read.list } : read;
}

/**
 * Update: writes the class list (when it changed) and records what it holds into the report;
 * the list as the file now holds it.
 */
async function writeUpdate(
  report: Report,
  existing: { list: ClassList; text?: string } | undefined,
  settings: Settings,
  write: { prune: boolean; root: WriteRoot },
): Promise<ClassList> {
  const prune = write.prune && !settings.partial;
  const next = updatedClassList(existing?.list, report.servers, prune);
  const audited = new Set(report.servers.map((s) => s.server));
  const others = [...(existing?.list.tools.values() ?? [])].filter((r) => !audited.has(r.server));
  if (others.length) report.others = { pruned: prune, records: others };
  report.written = { entries: 0, kept: 0 };
  for (const server of report.servers) {
    const live = new Set(server.tools.map((t) => t.name));
    for (const record of recordsOf(next, server.server).values()) {
      report.written.entries += 1;
      if (!live.has(record.tool)) report.written.kept += 1;
    }
  }
  const text = serializeClassList(next);
  report.classListWritten = text !== existing?.text;
  if (report.classListWritten)
    await writeConfined(settings.classList, text, write.root, 'the class list');
  return next;
}

/** Check: the run's own findings, the policy (overrides, approval, waivers), and the verdict. */
async function judge(
  report: Report,
  classList: ClassList | undefined,
  base: ClassList | undefined | null,
  settings: Settings,
  options: AuditOptions,
): Promise<void> {
  const servers = report.servers;
  // Each server was compared with its own reference: a tool moved from one to another is paired
  // now, over the whole run, before any finding is judged (a relaxed class must not pass as added).
  pairMoves(servers);
  const only = servers.length === 1 ? servers[0] : undefined;
  report.updateCommand = only
    ? pinnedCommand(options.updateCommand ?? DEFAULT_UPDATE_COMMAND, only)
    : (options.updateCommand ?? DEFAULT_UPDATE_COMMAND);
  if (!classList) report.firstRun = true;
  const removed = removedServers(base, classList, servers, settings);
  if (removed.names.length) report.removedServers = removed.names;
  // A recorded server the config no longer has is the run's finding: under the first audited
  // server, it would blame that server (and its comment) alone.
  if (options.clientRules) putClaudeCodeDecisions(servers, options.clientRules);
  const ruleFindings = [
    ...applyClients(
      servers,
      classList,
      options.clients,
      options.clientRules,
      writtenKeys(settings),
    ),
    ...(options.justifications ? await applyJustifications(servers, options.justifications) : []),
  ];
  const names = servers.map((s) => s.server);
  // The approval label first, then the base's findings: the order the two are awaited in.
  const approved = (await options.approved) ?? false;
  const run: Finding[] = [
    ...staleServers(classList, names, settings, report.updateCommand),
    ...removed.findings,
    // A start-changed finding goes under its server, where it raises the tools gone from it.
    ...pairStartChanges(servers, (await options.baseFindings) ?? []),
    ...ruleFindings,
  ];
  const today = options.today ?? new Date().toISOString().slice(0, 10);
  report.findings = applyPolicy(servers, settings, approved, today, run);
  for (const s of servers) adviseFixes(s.findings, s.changes);
  report.result = resultOf(allFindings(report), settings.failOn);
}
