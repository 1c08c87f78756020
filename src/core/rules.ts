// core/: the pure middle of the flow, tools -> findings (parse and classify tools, policies,
// class lists, diffs, renames, waivers, and this list of every rule). No fs, processes or
// network. May import the shared pure modules (errors, escape, lazy) and types from config/;
// never server/, report/, clients/, action/ or cli/. A new rule starts here, in RULES.
/** The severities, most severe first. */
export const SEVERITIES = ['error', 'warning', 'notice'] as const;
export type Severity = (typeof SEVERITIES)[number];
/** The fail-on thresholds: a severity, or never (report, never fail). */
export const FAIL_ON_LEVELS = [...SEVERITIES, 'never'] as const;
export type FailOn = (typeof FAIL_ON_LEVELS)[number];

/** Every rule the auditor reports, with its default severity and what it means. */

export const RULES = {
  'hint-dropped': {
    severity: 'error',
    approvable: true,
    summary: 'a hint declared before is absent now',
  },
  'unrecorded-change': {
    severity: 'error',
    approvable: false,
    summary: 'live tools differ from the class list: run update and commit',
  },
  'class-relaxed': {
    severity: 'warning',
    // A delete tool relaxed is the change the check exists to stop: an error, not a warning.
    highest: 'error',
    approvable: true,
    summary:
      'delete to edit/read (error), or edit to read (warning): clients will auto-approve what they used to ask about',
  },
  'class-escalated': {
    severity: 'notice',
    approvable: false,
    summary: 'read to edit/delete, or edit to delete',
  },
  'reach-opened': { severity: 'warning', approvable: false, summary: 'closed to open world' },
  'tool-added': {
    severity: 'notice',
    approvable: false,
    summary: 'a tool that was not in the base class list',
  },
  'tool-removed': {
    severity: 'notice',
    approvable: false,
    summary: 'a tool of the base class list is gone',
  },
  'start-removed': {
    severity: 'error',
    approvable: true,
    summary:
      "a tool of the base class list is gone from a server whose start configuration the PR's config changed: the command clients run may still serve it",
  },
  'tool-renamed': {
    severity: 'notice',
    approvable: false,
    summary:
      'same input schema under a new name; a probable rename (a removed and an added tool whose declared hints were dropped or whose class relaxed); or a tool moved from one server to another (same name, same schema, or probable); a reason is carried over only for a same-schema rename within one server whose class did not rise',
  },
  'policy-claude': {
    severity: 'error',
    approvable: false,
    summary: 'misses what the Claude connector directory requires',
  },
  'policy-openai': {
    severity: 'error',
    approvable: false,
    summary: 'misses what the OpenAI Apps SDK requires',
  },
  'policy-explicit': {
    severity: 'error',
    approvable: false,
    summary: 'misses a title or one of the four hints',
  },
  'tool-name': {
    severity: 'error',
    approvable: false,
    summary: "breaks the spec's tool-name rules",
  },
  'malformed-tool': {
    severity: 'error',
    approvable: false,
    summary: 'a tool that fails validation',
  },
  'duplicate-tool': { severity: 'error', approvable: false, summary: 'two tools with one name' },
  'hint-contradiction': {
    severity: 'warning',
    approvable: false,
    summary: 'readOnlyHint true with destructiveHint true',
  },
  'title-location': {
    severity: 'warning',
    approvable: false,
    summary: 'the title is only in Tool.title, not in annotations.title',
  },
  'era-mismatch': {
    severity: 'warning',
    approvable: false,
    summary: "a tool's annotations differ between protocol eras",
  },
  'stale-waiver': {
    severity: 'warning',
    approvable: false,
    summary: 'a waiver that no longer matches anything, or has expired',
  },
  'rule-allows-delete': {
    severity: 'error',
    approvable: false,
    summary: 'a Claude Code allow rule lets a delete tool run without asking',
  },
  'rule-allows-edit': {
    severity: 'warning',
    approvable: false,
    summary: 'a Claude Code allow rule lets an edit tool run without asking',
  },
  'rule-ignored': {
    severity: 'warning',
    approvable: false,
    summary:
      'a Claude Code rule or setting the client skips (allow glob outside the tool part, parentheses, whitespace, a repo-controlled bypassPermissions, allow rules of a tracked settings.local.json)',
  },
  'settings-ignored': {
    severity: 'error',
    approvable: false,
    summary:
      'a Claude Code settings file the client drops whole (not JSON, or a known key of the wrong type), deny rules included; a warning when no recorded delete tool depends on it',
  },
  'rule-stale': {
    severity: 'notice',
    approvable: false,
    summary: 'a Claude Code rule naming a server or tool the class list does not record',
  },
  'rule-unset': {
    severity: 'notice',
    approvable: false,
    summary: 'a recorded tool no Claude Code rule decides (the client asks by default)',
  },
  'rule-shadowed': {
    severity: 'notice',
    approvable: false,
    summary: 'a Claude Code allow rule made dead by a broader ask or deny',
  },
  'server-removed': {
    severity: 'error',
    approvable: true,
    summary: 'the base class list records a server that no audited server matches',
  },
  'config-relaxed': {
    severity: 'error',
    approvable: true,
    summary:
      "the PR's config differs from the base commit's in any key but the few that cannot weaken the check (a rule raised, failOn stricter, a policy or server added, a waiver removed, limits, timeouts, concurrency, how a server starts)",
  },
  'start-changed': {
    severity: 'notice',
    approvable: false,
    summary:
      "the PR's config changes how a server is started (command, args, cwd, env, url, headers: named, never shown)",
  },
  'class-list-moved': {
    severity: 'notice',
    approvable: false,
    summary:
      'the class list is at another path than at the base commit: the two files are compared',
  },
} as const satisfies Record<
  string,
  { severity: Severity; highest?: Severity; approvable: boolean; summary: string }
>;

export type RuleId = keyof typeof RULES;
export const RULE_IDS = Object.keys(RULES) as RuleId[];

export function isRuleId(value: string): value is RuleId {
  return Object.hasOwn(RULES, value);
}

/**
 * The most severe a rule's findings are by default: its severity, or above it where some of its
 * findings are filed higher on purpose (class-relaxed of a delete tool). Setting the rule to
 * anything below this in a config lowers those findings too.
 */
export function highestSeverity(rule: RuleId): Severity {
  const entry: { severity: Severity; highest?: Severity } = RULES[rule];
  return entry.highest ?? entry.severity;
}

const SEVERITY_RANK: Record<FailOn, number> = { notice: 1, warning: 2, error: 3, never: 4 };

/** True when a finding of `severity` makes a run with this fail-on threshold fail. */
export function meetsThreshold(severity: Severity, failOn: FailOn): boolean {
  return failOn !== 'never' && SEVERITY_RANK[severity] >= SEVERITY_RANK[failOn];
}

/** Sorts most severe first. */
export function bySeverity(a: { severity: Severity }, b: { severity: Severity }): number {
  return SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity];
}
