// core/rules/: one file per rule (its id, default severity, whether the approval label clears
// it, what it means, what clears it, and its check), and this file, the shape each fills. The
// registry (core/rules.ts) lists the files; the rules table, the README's table, SARIF's rule
// metadata and the config's known rules all come from that list. Pure: types and plain data.
import type { ToolChange } from '../change.js';
import type { ClassifiedTool, Reach, ToolClass } from '../classify.js';
import type { FindingOf, Severity } from '../finding-types.js';
import type { MalformedTool } from '../tools.js';
import type { Policy } from '../policy-names.js';
import type { DeclaredHint, JustificationEntry, JustifiedHint } from '../justifications.js';

export {
  FAIL_ON_LEVELS,
  SEVERITIES,
  type FailOn,
  type FindingOf,
  type Severity,
} from '../finding-types.js';

/** What a tool rule reads: one live tool of one server. */
export interface ToolContext {
  tool: ClassifiedTool;
}

/** What a listing rule reads: one server's whole listing, valid tools and malformed ones. */
export interface ListingContext {
  tools: ClassifiedTool[];
  malformed: MalformedTool[];
}

/** What a change rule reads: one tool's change between the base class list and the PR. */
export interface ChangeContext {
  change: ToolChange;
}

/** What a drift rule reads: one way a live tool differs from the class list at HEAD. */
export interface DriftContext {
  change: ToolChange;
  /** The command that records the live tools, as the user would type it. */
  updateCommand: string;
  /** The class list's path. */
  classList: string;
}

/** What an era rule reads: one server's tools as each protocol era lists them. */
export interface ErasContext {
  legacy: ClassifiedTool[];
  modern: ClassifiedTool[];
  /** The names of the tools malformed in either era (malformed-tool covers them). */
  malformed: Set<string>;
}

/**
 * What a run rule reads: one fact of the run, gathered by the step that learns it (the config
 * files, the class lists, the waivers, the servers audited). Each step fills only its own part,
 * so the rules of the run that read another part raise nothing there. Plain data: no rule file
 * imports config/ or the step.
 */
export interface RunContext {
  /** Waivers no finding used, or expired: stale-waiver. */
  unusedWaivers?: { tool: string; rule: string; expires?: string; expired: boolean }[];
  /** The PR's config file against the base commit's: config-relaxed and start-changed. */
  config?: {
    /** The base's config file as named in a message (`path at label`), and the PR's. */
    base: string;
    head: string;
    /** Every way the PR's config may weaken the check, in plain words. */
    relaxations: string[];
    /** config-relaxed's severity as the base's config sets it (the PR's cannot turn it down). */
    relaxedSeverity: Severity | 'off';
    /** Each server whose start configuration changed, with what changed. */
    starts: { server: string; changed: string[] }[];
  };
  /** The class list's path at HEAD and the one the base's was found at, when they differ. */
  movedClassList?: { head: string; base: string; label: string };
  /** Class-list servers at HEAD that no audited server answers to: unrecorded-change. */
  unauditedServers?: {
    servers: { server: string; tools: number }[];
    audited: string[];
    /** Whether the run audits a single server (its name is then pinned by --server-name). */
    single: boolean;
    updateCommand: string;
    classList: string;
  };
  /** No class list at HEAD: unrecorded-change. */
  noClassList?: { classList: string; updateCommand: string };
  /** Base class-list servers no audited server matches: server-removed. */
  removedServers?: { servers: { server: string; tools: string[] }[]; single: boolean };
  /** A server compared under the name the base records it by: tool-renamed. */
  renamedServer?: { from: string; name: string; unnamed: boolean };
  /** Tools gone from a server whose start configuration the PR changed: start-removed. */
  startRemoved?: { tool: string; class: ToolClass; reach: Reach }[];
  /** OpenAI's hint justifications against the live tools: the justification-* rules. */
  justifications?: JustificationsFacts;
}

/** The justifications file, as the PR has it, beside the live tools and the base's file. */
export interface JustificationsFacts {
  /** The file's path. */
  file: string;
  /** Each audited tool: its hints now, its entry in the file and in the base commit's file. */
  tools: {
    tool: string;
    server: string;
    live: Record<JustifiedHint, DeclaredHint>;
    entry?: JustificationEntry;
    base?: JustificationEntry;
    /** The name the base's entry is under, when the tool was renamed in this change. */
    baseName?: string;
  }[];
  /** Entries of the file that no audited tool answers to. */
  orphaned: string[];
  /** No file: the config names it, or the base commit (`deletedAt`, its label) has one. */
  absent?: { deletedAt?: string };
}

/** What a client does when the model calls a tool: run it, ask the user, refuse, or not offer it. */
export const CLIENT_DECISIONS = ['allow', 'ask', 'deny', 'hidden'] as const;
export type ClientDecision = (typeof CLIENT_DECISIONS)[number];

/** A tool's effective decision in one client, and what made it. */
export interface ClientVerdict {
  decision: ClientDecision;
  /** The rule or setting that decided, as written in the file (absent for a built-in default). */
  rule?: string;
  file?: string;
  /** 1-based line of `rule` in `file`. */
  line?: number;
  /**
   * Set when the client decided on its own, from the annotations or a default, with no rule of
   * the class list's shape (Codex's `auto`, opencode's default allow): says how, for people.
   */
  byClient?: string;
}

/** The client rules raised from a client's own problems (the rest are raised from verdicts). */
export const CLIENT_PROBLEM_KINDS = [
  'rule-ignored',
  'rule-stale',
  'rule-shadowed',
  'settings-ignored',
  'rule-unjudged',
] as const;
export type ClientProblemKind = (typeof CLIENT_PROBLEM_KINDS)[number];

/**
 * Something wrong with a client's rule or file itself, not one tool: a rule the client skips, one
 * that names nothing recorded or decides nothing, a file it drops whole. The client says what and
 * why in its own terms; the rule of `kind` words the finding (client, subject, file and line).
 */
export interface ClientProblem {
  kind: ClientProblemKind;
  /** The rule or setting as the client's file writes it (`allow rule "mcp__x"`); absent for a whole file. */
  rule?: string;
  file: string;
  /** 1-based; absent is line 1. */
  line?: number;
  /** Why, in the client's terms: what it skips, names or does instead (no final period). */
  why: string;
  fix: string;
}

/**
 * What a client rule reads: one client's verdict on one recorded tool (rule-allows-delete,
 * rule-allows-edit, rule-unset), or one of its problems (rule-ignored, rule-stale, rule-shadowed,
 * settings-ignored). Plain data that clients/judge.ts builds from the Client seam's answers.
 */
export interface ClientContext {
  /** The client's id and the name people know it by ("Codex CLI"). */
  client: { id: string; label: string };
  /** The command that writes the class list's rules into the client's file, for a fix. */
  rulesCommand: string;
  tool?: {
    /** The tool's name as the server sent it. */
    name: string;
    /** The tool as the client names it (`mcp__notes__add`, `notes_add`). */
    named: string;
    class: ToolClass;
    /** The decision the class list maps it to. */
    expected: Exclude<ClientDecision, 'hidden'>;
    verdict: ClientVerdict;
    /** What the check takes for granted in an allow (Claude Code: a trusted workspace). */
    assumes?: string;
  };
  problem?: ClientProblem;
  /** Whether the client lets a recorded delete tool through unrefused (settings-ignored's severity). */
  deleteExposed?: boolean;
}

/**
 * The phases of the audit a rule's check runs in, each with what the check reads. A rule
 * without a check is raised by the step it is about: its file still holds all that is said of it.
 */
export interface Phases {
  tool: ToolContext;
  listing: ListingContext;
  change: ChangeContext;
  drift: DriftContext;
  eras: ErasContext;
  run: RunContext;
  client: ClientContext;
}
export type Phase = keyof Phases;

/** What a finding carries besides its rule, tool, message and default severity. */
export type FindingExtra = Partial<Omit<FindingOf, 'rule' | 'tool' | 'message' | 'severity'>>;

/**
 * A finding of the rule whose check is running, at the rule's default severity. Typed by the
 * shape, not the registry's ids (a rule file cannot import the registry that lists it); the
 * registry's runChecks hands them on as Finding, their id being the rule's own.
 */
export type Raise = (tool: string | undefined, message: string, extra?: FindingExtra) => FindingOf;

/** A check: what it reads in its phase, and `raise`, which files a finding of its own rule. */
export type Check = {
  [P in Phase]: { phase: P; run: (context: Phases[P], raise: Raise) => FindingOf[] };
}[Phase];

/** One rule: everything the auditor says about it and, where it has one, its check. */
export interface Rule<Id extends string = string> {
  id: Id;
  /** Its findings' severity unless a config sets another. */
  severity: Severity;
  /** The most severe some of its findings are filed on purpose (class-relaxed of a delete tool). */
  highest?: Severity;
  /** Whether the approval label turns its findings (above a notice) into notices. */
  approvable: boolean;
  /**
   * Set on a rule about the PR's config itself (config-relaxed): its severity comes from the
   * base commit's config and it fails at error whatever threshold the PR's config sets, since
   * the config it judges cannot turn it down.
   */
  judgesConfig?: true;
  /**
   * Set on the rule that says the class list is behind the live tools (unrecorded-change): the
   * reports' next step is then `update` and a commit.
   */
  drift?: true;
  /** The policy profile that enables it: its check runs only when the profile is on. */
  policy?: Policy;
  /** When it is raised: the rules table's and SARIF's short description. */
  summary: string;
  /** What clears it, in markdown: the README table's last column and SARIF's help. */
  clears: string;
  /** Its check, over the context of the phase it runs in; or one per phase it runs in. */
  check?: Check | readonly Check[];
}

/** A rule's checks, whether it has one or several. */
export function checksOf(rule: Rule): readonly Check[] {
  if (!rule.check) return [];
  return 'phase' in rule.check ? [rule.check] : rule.check;
}

/**
 * A finding of `rule` at its default severity. The key order (rule, severity, message, the
 * extras, tool) is the JSON report's.
 */
export function findingOf<Id extends string>(
  rule: Rule<Id>,
  tool: string | undefined,
  message: string,
  extra: FindingExtra = {},
): FindingOf<Id> {
  const f: FindingOf<Id> = { rule: rule.id, severity: rule.severity, message, ...extra };
  if (tool !== undefined) f.tool = tool;
  return f;
}

/** A rule as written in its file: the id kept literal, so the registry's ids are a union. */
export function defineRule<const Id extends string>(rule: Rule<Id>): Rule<Id> {
  return rule;
}
