import { relative, resolve, sep } from 'node:path';
import { classifyTool, type ClassifiedTool } from './core/classify.js';
import {
  fullToolName,
  normalizeServerName,
  parseClassList,
  readClassList,
  recordsOf,
  serializeClassList,
  toRecord,
  writeFileAtomic,
  type ClassList,
  type ToolRecord,
} from './core/classlist.js';
import type { EraSetting, ServerSettings, Settings, Waiver } from './config/settings.js';
import {
  CLASS_RANK,
  carriesReason,
  changeFindings,
  diffRecords,
  driftFindings,
  describeMoves,
  describeTitleMove,
  isSchemaOnly,
  type ToolChange,
} from './core/diff.js';
import { AuditError } from './errors.js';
import { gitShow } from './git.js';
import { finding, type Finding } from './core/findings.js';
import { listTools, type Listing, type ProtocolEra } from './server/listing.js';
import type { Policy } from './config/defaults.js';
import { stopsSettled } from './server/process.js';
import { stopUnclaimed } from './prestart.js';
import { checkPolicies } from './core/policies.js';
import { redactArgs, redactUrl } from './redact.js';
import { bySeverity, meetsThreshold, RULES, type FailOn } from './core/rules.js';
import {
  applyClientRules,
  type ClaudeCodeDecision,
  type ClientRulesInput,
} from './clients/client-rules.js';
import { isMalformed, parseTool, type MalformedTool } from './core/tools.js';
import { NPX_COMMAND } from './version.js';

export interface AuditedTool extends ClassifiedTool {
  fullName: string;
  /** With settings files to check: what Claude Code decides for the tool. */
  claudeCode?: ClaudeCodeDecision;
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
  changes: ToolChange[];
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

export type Mode = 'list' | 'check' | 'update';

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

/** The update command drift messages suggest when the caller gives none. */
const DEFAULT_UPDATE_COMMAND = `${NPX_COMMAND} update`;

export interface BaseText {
  text: string | null;
  label: string;
  /** The file it was read from, when it is one (--base): what a parse error names. */
  file?: string;
}

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
  /**
   * What reading the base found about the run itself: the PR's config relaxing the base
   * commit's (config-relaxed), a class list that moved (class-list-moved). For check.
   */
  baseFindings?: Finding[] | Promise<Finding[]>;
  /** For update: remove the entries of servers this run did not audit (--prune). */
  prune?: boolean;
}

/** The command line or URL, for people: only a URL's scheme, host and port; no secret of a command line. */
export function describeTarget(server: ServerSettings): string {
  const t = server.target;
  return t.kind === 'stdio'
    ? [t.spawn.command, ...redactArgs(t.spawn.args).shown].join(' ')
    : redactUrl(t.url);
}

function parseListing(listing: Pick<Listing, 'rawTools'>): {
  tools: ClassifiedTool[];
  malformed: MalformedTool[];
} {
  const tools: ClassifiedTool[] = [];
  const malformed: MalformedTool[] = [];
  listing.rawTools.forEach((raw, index) => {
    const parsed = parseTool(raw, index);
    if (isMalformed(parsed)) malformed.push(parsed);
    else tools.push(classifyTool(parsed));
  });
  return { tools, malformed };
}

/**
 * Tools whose annotations differ between the two eras. A tool malformed in either era is left
 * out of "listed in one era but not the other": its malformed-tool finding already covers it.
 */
function eraFindings(
  legacy: ClassifiedTool[],
  modern: ClassifiedTool[],
  malformed: Set<string>,
): Finding[] {
  const out: Finding[] = [];
  const modernByName = new Map(modern.map((t) => [t.name, t]));
  const legacyNames = new Set(legacy.map((t) => t.name));
  for (const tool of legacy) {
    const other = modernByName.get(tool.name);
    if (!other) {
      if (!malformed.has(tool.name))
        out.push(
          finding('era-mismatch', tool.name, 'Listed in the legacy era but not in the modern era.'),
        );
      continue;
    }
    const moves = diffRecords(
      new Map([['x', toRecord('s', tool)]]),
      new Map([['x', toRecord('s', other)]]),
    )[0];
    if (moves && (moves.hints.length || moves.titleChanged))
      out.push(
        finding(
          'era-mismatch',
          tool.name,
          `Annotations differ between eras (legacy -> modern): ${[
            describeMoves(moves.hints),
            moves.titleChanged ? describeTitleMove(tool, other) : '',
          ]
            .filter(Boolean)
            .join('; ')}.`,
          { hints: moves.hints.map((m) => m.hint) },
        ),
      );
  }
  for (const tool of modern)
    if (!legacyNames.has(tool.name) && !malformed.has(tool.name))
      out.push(
        finding('era-mismatch', tool.name, 'Listed in the modern era but not in the legacy era.'),
      );
  return out;
}

/** How much a client may do with a tool: its class first, then its reach (open over closed). */
function riskOf(tool: Pick<ClassifiedTool, 'class' | 'reach'>): number {
  return CLASS_RANK[tool.class] * 2 + (tool.reach === 'open' ? 1 : 0);
}

/** The highest risk each name has among these tools (two tools may share one name). */
function rankByName(tools: ClassifiedTool[]): Map<string, number> {
  const ranks = new Map<string, number>();
  for (const t of tools) ranks.set(t.name, Math.max(ranks.get(t.name) ?? 0, riskOf(t)));
  return ranks;
}

/**
 * The tools of both eras, one version per name: where the eras disagree, the riskier (delete
 * over edit over read, then open over closed, else the legacy one), so that the class list never
 * understates what some client can call.
 */
function unionOfEras(legacy: ClassifiedTool[], modern: ClassifiedTool[]): ClassifiedTool[] {
  const legacyRank = rankByName(legacy);
  const modernRank = rankByName(modern);
  return [
    ...legacy.filter((t) => (modernRank.get(t.name) ?? -1) <= (legacyRank.get(t.name) ?? 0)),
    ...modern.filter((t) => (legacyRank.get(t.name) ?? -1) < (modernRank.get(t.name) ?? 0)),
  ];
}

/**
 * A server's tools and their findings, from its listing in one era or in both. In both, every
 * tool of either era is checked (a finding the eras share is reported once; one that only an era
 * has says so), and the tools recorded are the union by name (see unionOfEras). A tool malformed
 * in either era is malformed: its class-list entry stays as reviewed.
 */
export function auditListings(
  listings: Pick<Listing, 'era' | 'rawTools'>[],
  policies: readonly Policy[],
): { tools: ClassifiedTool[]; malformedNames: string[]; findings: Finding[] } {
  const parsed = listings.map((listing) => ({ era: listing.era, ...parseListing(listing) }));
  const [first, second] = parsed as [(typeof parsed)[number], (typeof parsed)[number]?];
  const malformedNames = [...new Set(parsed.flatMap((p) => p.malformed.map((m) => m.label)))];
  if (!second)
    return {
      tools: first.tools,
      malformedNames,
      findings: checkPolicies(first.tools, first.malformed, policies),
    };
  const key = (f: Finding) => JSON.stringify([f.rule, f.tool, f.message]);
  const [ofFirst, ofSecond] = [first, second].map((p) =>
    checkPolicies(p.tools, p.malformed, policies),
  ) as [Finding[], Finding[]];
  const [keysFirst, keysSecond] = [new Set(ofFirst.map(key)), new Set(ofSecond.map(key))];
  const onlyIn = (era: ProtocolEra, f: Finding): Finding => ({
    ...f,
    message: `${era === 'legacy' ? 'Legacy' : 'Modern'} era only: ${f.message}`,
  });
  const findings = [
    ...ofFirst.map((f) => (keysSecond.has(key(f)) ? f : onlyIn(first.era, f))),
    ...ofSecond.filter((f) => !keysFirst.has(key(f))).map((f) => onlyIn(second.era, f)),
  ];
  const malformed = new Set(malformedNames);
  const [legacy, modern] = first.era === 'legacy' ? [first, second] : [second, first];
  findings.push(...eraFindings(legacy.tools, modern.tools, malformed));
  return {
    tools: unionOfEras(legacy.tools, modern.tools).filter((t) => !malformed.has(t.name)),
    malformedNames,
    findings,
  };
}

async function auditServer(
  server: ServerSettings,
  settings: Settings,
  classList: ClassList | undefined,
  baseList: Promise<ClassList | undefined | null>,
  options: AuditOptions,
): Promise<ServerReport> {
  const eras: ProtocolEra[] = server.era === 'both' ? ['legacy', 'modern'] : [server.era];
  const listings: Listing[] = [];
  for (const era of eras) listings.push(await listTools(server.target, era, settings.limits));
  const primary = listings[0] as Listing;
  const { tools, malformedNames, findings } = auditListings(
    listings,
    options.mode === 'update' ? [] : settings.policies,
  );

  const name = server.name ?? normalizeServerName(primary.serverInfo?.name ?? 'server');
  const report: ServerReport = {
    server: name,
    target: describeTarget(server),
    era: server.era,
    tools: tools.map((t) => ({ ...t, fullName: fullToolName(name, t.name) })),
    findings,
    changes: [],
    stdoutNoise: primary.stdoutNoise,
  };
  if (primary.serverInfo) report.serverInfo = primary.serverInfo;
  if (server.name === undefined) report.unpinnedName = primary.serverInfo?.name ?? '';
  if (malformedNames.length) report.malformedNames = malformedNames;
  const live = liveRecords(name, tools);
  // What update writes for this server: its changes are what the class list's diff will show.
  if (options.mode === 'update') report.changes = diffRecords(recordedOf(classList, report), live);
  if (options.mode !== 'check') return report;

  const base = await baseList;
  const head = recordedOf(classList, report);
  const updateCommand = options.updateCommand ?? DEFAULT_UPDATE_COMMAND;
  // Against HEAD a schema change is drift too (a notice): the hash recorded is what finds renames.
  const headChanges = classList ? diffRecords(head, live, { schema: true }) : [];
  if (classList) findings.push(...driftFindings(headChanges, updateCommand, settings.classList));
  else
    findings.push(
      finding(
        'unrecorded-change',
        undefined,
        `There is no class list at ${settings.classList} yet.`,
        {
          fix: `Run \`${updateCommand}\`, review the file, and commit ${settings.classList}.`,
        },
      ),
    );
  // Without a base, the class list at HEAD is what the live server is compared to.
  const renamedServer = renamedServerRecords(base ?? null, name, settings, live);
  if (renamedServer) report.renamedFrom = renamedServer.from;
  const reference =
    base === undefined
      ? classList
        ? head
        : undefined
      : withoutMalformed(renamedServer?.records ?? recordsOf(base ?? undefined, name), report);
  if (renamedServer && reference?.size)
    findings.push(
      finding(
        'tool-renamed',
        undefined,
        server.name === undefined
          ? `The server now calls itself "${name}"; the base class list records its tools under "${renamedServer.from}". They are compared as one server.`
          : `The base class list records this server's tools under "${renamedServer.from}", and no server of that name is audited now: "${name}" is taken as "${renamedServer.from}" renamed, and compared with it tool by tool.`,
        {
          fix:
            server.name === undefined
              ? 'Pin the name with --server-name (the server-name input) so the class list keys stay stable.'
              : `If "${renamedServer.from}" was renamed on purpose, nothing more is needed; else give the server back its name (its key in the config file).`,
        },
      ),
    );
  if (reference) {
    // What the PR changes in the tool surface: a schema change alone is not one (spec §5).
    report.changes =
      reference === head
        ? headChanges.filter((c) => !isSchemaOnly(c))
        : diffRecords(reference, live);
    findings.push(...changeFindings(report.changes));
  }
  return report;
}

/** A server's entries in a class list, but for those of tools it listed malformed. */
function recordedOf(list: ClassList | undefined, report: ServerReport): Map<string, ToolRecord> {
  return withoutMalformed(recordsOf(list, report.server), report);
}

function withoutMalformed(
  records: Map<string, ToolRecord>,
  report: ServerReport,
): Map<string, ToolRecord> {
  const skip = new Set(report.malformedNames);
  if (!skip.size) return records;
  return new Map([...records].filter(([, r]) => !skip.has(r.tool)));
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
function renamedServerRecords(
  base: ClassList | null,
  name: string,
  settings: Settings,
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
function staleServers(
  classList: ClassList | undefined,
  audited: string[],
  settings: Settings,
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
      `The class list records ${n} tool${n === 1 ? '' : 's'} of server "${server}", but no audited server has that name (this run audited ${audited.map((a) => `"${a}"`).join(', ')}).`,
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
function removedServers(
  base: ClassList | undefined | null,
  head: ClassList | undefined,
  reports: ServerReport[],
  settings: Settings,
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

/**
 * The class-list entries for what a server listed. Two tools with one name (a duplicate-tool
 * error) share one entry: the riskier of them, or the first listed, so that the entry a reviewer
 * reads never understates what a client may call under that name.
 */
function liveRecords(server: string, tools: ClassifiedTool[]): Map<string, ToolRecord> {
  const records = new Map<string, ToolRecord>();
  for (const tool of tools) {
    const key = fullToolName(server, tool.name);
    const held = records.get(key);
    if (!held || riskOf(tool) > riskOf(held)) records.set(key, toRecord(server, tool));
  }
  return records;
}

function waiverMatches(waiver: Waiver, f: Finding, server: string): boolean {
  return (
    waiver.rule === f.rule &&
    f.tool !== undefined &&
    (waiver.tool === f.tool || waiver.tool === fullToolName(server, f.tool))
  );
}

/**
 * Severity overrides, the approval label, then waivers. Returns the run's own findings: those
 * given (`run`, which take the overrides and the label too) and the stale waivers.
 */
export function applyPolicy(
  reports: ServerReport[],
  settings: Settings,
  approved: boolean,
  today: string,
  run: Finding[] = [],
): Finding[] {
  const used = new Set<Waiver>();
  const active = settings.waivers.filter((w) => w.expires === undefined || w.expires >= today);
  const adjust = (f: Finding): Finding | undefined => {
    // The config a config-relaxed finding is about cannot turn it down: its severity is the base
    // commit's (see configRelaxations).
    const override = f.rule === 'config-relaxed' ? undefined : settings.severities[f.rule];
    if (override === 'off') return undefined;
    // An override sets the rule's severity; a finding filed below it on purpose (a schema-only
    // drift notice) is only ever lowered.
    if (
      override &&
      (f.severity === RULES[f.rule].severity || !meetsThreshold(override, f.severity))
    )
      f.severity = override;
    return f;
  };
  const approve = (f: Finding): Finding => {
    if (approved && RULES[f.rule].approvable && f.severity !== 'notice') {
      f.severity = 'notice';
      f.approved = true;
    }
    return f;
  };
  for (const report of reports) {
    report.findings = report.findings.flatMap((f) => {
      const adjusted = adjust(f);
      if (!adjusted) return [];
      const kept = approve(adjusted);
      const waiver = active.find((w) => waiverMatches(w, kept, report.server));
      if (waiver) {
        used.add(waiver);
        kept.waived = {
          reason: waiver.reason,
          ...(waiver.expires ? { expires: waiver.expires } : {}),
        };
      }
      return [kept];
    });
    report.findings.sort(bySeverity);
  }
  // The run's findings name no tool, so no waiver matches them.
  const runFindings = run.flatMap((f) => {
    const kept = adjust(f);
    return kept ? [approve(kept)] : [];
  });
  const audited = reports.map((r) => r.server);
  // A run of only some servers (--server) cannot tell a waiver of another server's tool (or of
  // a bare tool name, which any server may have) from a stale one.
  const mayBeOthers = (waiver: Waiver) =>
    settings.partial && !audited.some((server) => waiver.tool.startsWith(fullToolName(server, '')));
  for (const waiver of settings.waivers) {
    if (used.has(waiver) || mayBeOthers(waiver)) continue;
    const expired = waiver.expires !== undefined && waiver.expires < today;
    const f = adjust(
      finding(
        'stale-waiver',
        waiver.tool,
        expired
          ? `The waiver of ${waiver.rule} for ${waiver.tool} expired on ${waiver.expires}.`
          : `The waiver of ${waiver.rule} for ${waiver.tool} matches no finding.`,
        {
          fix: expired
            ? 'Fix the finding, or renew the waiver with a new expiry and reason.'
            : 'Remove the waiver from the config file.',
        },
      ),
    );
    if (f) runFindings.push(f);
  }
  return runFindings.sort(bySeverity);
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
  // A config that lowers failOn is one of the relaxations config-relaxed reports: that finding
  // fails at error whatever the threshold it is about says.
  const strictest: FailOn = meetsThreshold('error', failOn) ? failOn : 'error';
  return findings.some(
    (f) =>
      !f.waived && meetsThreshold(f.severity, f.rule === 'config-relaxed' ? strictest : failOn),
  )
    ? 'failed'
    : 'passed';
}

/**
 * Reads the class list at a git ref: `git show REF:./PATH`, with PATH relative to the folder git
 * runs in (an absolute path would name no file in the commit).
 */
export function readAtRef(ref: string, path: string, cwd?: string): Promise<string | null> {
  const inRepo = relative(resolve(cwd ?? '.'), resolve(cwd ?? '.', path))
    .split(sep)
    .join('/');
  return gitShow(`${ref}:./${inRepo}`, cwd).catch((error: Error) => {
    throw new AuditError(
      `Could not read ${path} at ${ref}: ${error.message.split('\n')[0]}.`,
      `Make sure the ref exists locally (a shallow checkout may need git fetch --depth=1 origin ${ref}).`,
    );
  });
}

/**
 * The whole audit: start each server, list and classify its tools, check policies, compare with
 * the class list (and the base), and for update write the class list.
 */
export async function runAudit(settings: Settings, options: AuditOptions): Promise<Report> {
  try {
    return await auditServers(settings, options);
  } finally {
    // Every server we started is gone before the audit reports, on success or failure, and
    // one started early that the audit did not claim is stopped now, not at exit.
    await stopUnclaimed();
    await stopsSettled();
  }
}

async function auditServers(settings: Settings, options: AuditOptions): Promise<Report> {
  const existing = await readClassList(settings.classList);
  const parseBase = (given: BaseText | undefined): ClassList | undefined | null =>
    given === undefined
      ? undefined
      : given.text === null
        ? null
        : parseClassList(given.text, given.file ?? `${settings.classList} at ${given.label}`);
  // A base already read fails now if it does not parse; one still on its way, once awaited.
  const given = options.base instanceof Promise ? options.base : Promise.resolve(options.base);
  const base = given.then(parseBase);
  // Awaited only after a listing: until then its failure must not count as unhandled.
  base.catch(() => undefined);
  if (options.baseFindings instanceof Promise) options.baseFindings.catch(() => undefined);
  const servers: ServerReport[] = [];
  for (const server of settings.servers)
    servers.push(await auditServer(server, settings, existing?.list, base, options));
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
    const prune = options.prune === true && !settings.partial;
    const next = updatedClassList(existing?.list, servers, prune);
    const audited = new Set(names);
    const others = [...(existing?.list.tools.values() ?? [])].filter((r) => !audited.has(r.server));
    if (others.length) report.others = { pruned: prune, records: others };
    report.written = { entries: 0, kept: 0 };
    for (const server of servers) {
      const live = new Set(server.tools.map((t) => t.name));
      for (const record of recordsOf(next, server.server).values()) {
        report.written.entries += 1;
        if (!live.has(record.tool)) report.written.kept += 1;
      }
    }
    const text = serializeClassList(next);
    report.classListWritten = text !== existing?.text;
    if (report.classListWritten) await writeFileAtomic(settings.classList, text);
    return report;
  }
  if (options.mode === 'check') {
    report.updateCommand = options.updateCommand ?? DEFAULT_UPDATE_COMMAND;
    if (!existing) report.firstRun = true;
    const removed = removedServers(await base, existing?.list, servers, settings);
    if (removed.names.length) report.removedServers = removed.names;
    // A recorded server the config no longer has is the run's finding: under the first audited
    // server, it would blame that server (and its comment) alone.
    const ruleFindings = options.clientRules
      ? applyClientRules(servers, existing?.list, options.clientRules)
      : [];
    report.findings = applyPolicy(
      servers,
      settings,
      (await options.approved) ?? false,
      options.today ?? new Date().toISOString().slice(0, 10),
      [
        ...staleServers(existing?.list, names, settings, report.updateCommand),
        ...removed.findings,
        ...((await options.baseFindings) ?? []),
        ...ruleFindings,
      ],
    );
    report.result = resultOf(allFindings(report), settings.failOn);
  }
  return report;
}

/**
 * The class list after update: each audited server's entries replaced by its live tools, each
 * keeping its reason (across a rename too, unless the class rose: see carriesReason); other
 * servers' entries untouched, unless `prune` removes them (reviewed entries leave only when asked).
 */
export function updatedClassList(
  existing: ClassList | undefined,
  servers: ServerReport[],
  prune: boolean,
): ClassList {
  const audited = new Set(servers.map((s) => s.server));
  const tools = new Map(
    [...(existing?.tools ?? [])].filter(([, r]) => !prune || audited.has(r.server)),
  );
  for (const report of servers) {
    // A tool listed malformed keeps its entry as it was: `before` leaves it out, so it stays.
    const before = recordedOf(existing, report);
    const live = liveRecords(report.server, report.tools);
    const carried = new Map(
      diffRecords(before, live)
        .filter(carriesReason)
        .map((c) => [c.name, c.before?.reason]),
    );
    for (const key of before.keys()) tools.delete(key);
    for (const [key, record] of live) {
      const reason = before.get(key)?.reason ?? carried.get(key);
      tools.set(key, reason !== undefined ? { ...record, reason } : record);
    }
  }
  const list: ClassList = { tools };
  if (existing?.$schema !== undefined) list.$schema = existing.$schema;
  return list;
}
