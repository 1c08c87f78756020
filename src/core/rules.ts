// core/: the pure middle of the flow, tools -> findings (parse and classify tools, policies,
// class lists, diffs, renames, waivers, and this registry of every rule). No fs, processes or
// network. May import only the shared leaves (errors, escape, lazy); never config/, server/,
// report/, clients/, action/ or cli/ (scripts/layers.mjs). A new rule is a new file in
// core/rules/ (see core/rules/rule.ts for what it holds) and its line in RULE_LIST below.
import hintDropped from './rules/hint-dropped.js';
import unrecordedChange from './rules/unrecorded-change.js';
import classRelaxed from './rules/class-relaxed.js';
import classEscalated from './rules/class-escalated.js';
import reachOpened from './rules/reach-opened.js';
import descriptionChanged from './rules/description-changed.js';
import schemaChanged from './rules/schema-changed.js';
import toolAdded from './rules/tool-added.js';
import toolRemoved from './rules/tool-removed.js';
import startRemoved from './rules/start-removed.js';
import toolRenamed from './rules/tool-renamed.js';
import policyClaude from './rules/policy-claude.js';
import policyOpenai from './rules/policy-openai.js';
import policyExplicit from './rules/policy-explicit.js';
import justificationMissing from './rules/justification-missing.js';
import justificationRemoved from './rules/justification-removed.js';
import justificationStale from './rules/justification-stale.js';
import justificationPlaceholder from './rules/justification-placeholder.js';
import justificationOrphaned from './rules/justification-orphaned.js';
import toolName from './rules/tool-name.js';
import malformedTool from './rules/malformed-tool.js';
import duplicateTool from './rules/duplicate-tool.js';
import hintContradiction from './rules/hint-contradiction.js';
import titleLocation from './rules/title-location.js';
import eraMismatch from './rules/era-mismatch.js';
import staleWaiver from './rules/stale-waiver.js';
import ruleAllowsDelete from './rules/rule-allows-delete.js';
import ruleAllowsEdit from './rules/rule-allows-edit.js';
import ruleIgnored from './rules/rule-ignored.js';
import settingsIgnored from './rules/settings-ignored.js';
import ruleStale from './rules/rule-stale.js';
import ruleUnset from './rules/rule-unset.js';
import ruleShadowed from './rules/rule-shadowed.js';
import ruleUnjudged from './rules/rule-unjudged.js';
import serverRemoved from './rules/server-removed.js';
import configRelaxed from './rules/config-relaxed.js';
import startChanged from './rules/start-changed.js';
import classListMoved from './rules/class-list-moved.js';
import {
  checksOf,
  findingOf,
  type FailOn,
  type FindingOf,
  type Phase,
  type Phases,
  type Raise,
  type Rule,
  type Severity,
} from './rules/rule.js';

export { FAIL_ON_LEVELS, SEVERITIES, type FailOn, type Severity } from './rules/rule.js';

/**
 * Every rule the auditor reports, in the order the rules table, the README and SARIF list them,
 * and the order the checks of one phase run in (so the order of a tool's findings): the
 * findings of a PR's change first, then the policies, the listing, the run, the clients.
 */
const RULE_LIST = [
  // First: a change's checks run in this order, and a rename says what the rest are about.
  toolRenamed,
  hintDropped,
  unrecordedChange,
  classRelaxed,
  classEscalated,
  reachOpened,
  descriptionChanged,
  schemaChanged,
  toolAdded,
  toolRemoved,
  startRemoved,
  policyClaude,
  policyOpenai,
  policyExplicit,
  justificationStale,
  justificationRemoved,
  justificationMissing,
  justificationPlaceholder,
  justificationOrphaned,
  toolName,
  malformedTool,
  duplicateTool,
  hintContradiction,
  titleLocation,
  eraMismatch,
  staleWaiver,
  ruleAllowsDelete,
  ruleAllowsEdit,
  ruleIgnored,
  settingsIgnored,
  ruleUnjudged,
  ruleStale,
  ruleUnset,
  ruleShadowed,
  serverRemoved,
  configRelaxed,
  startChanged,
  classListMoved,
] as const;

type Listed = (typeof RULE_LIST)[number];
export type RuleId = Listed['id'];

/** Every rule by its id. */
export const RULES = Object.fromEntries(RULE_LIST.map((r) => [r.id, r])) as {
  readonly [Id in RuleId]: Rule<Id>;
};
export const RULE_IDS: RuleId[] = RULE_LIST.map((r) => r.id);
/** Every rule, in the table's order. */
export const ALL_RULES: readonly Rule<RuleId>[] = RULE_LIST;

/** One rule's check of a phase, with the `raise` that files its findings, made once. */
interface PhaseCheck {
  rule: Rule<RuleId>;
  run: (context: never, raise: Raise) => FindingOf[];
  raise: Raise;
}

/** The checks of each phase in the registry's order, built on first use: not per tool. */
const phaseChecks = new Map<Phase, PhaseCheck[]>();

function checksIn(phase: Phase): PhaseCheck[] {
  let checks = phaseChecks.get(phase);
  if (checks) return checks;
  checks = [];
  for (const rule of ALL_RULES)
    for (const check of checksOf(rule))
      if (check.phase === phase)
        checks.push({
          rule,
          run: check.run,
          raise: (tool, message, extra) => findingOf(rule, tool, message, extra),
        });
  phaseChecks.set(phase, checks);
  return checks;
}

/**
 * The findings of every rule whose check runs in `phase` (and that `only` keeps), in the
 * registry's order: what the step of that phase calls instead of knowing its rules. It runs once
 * per tool, so the phase's checks are listed once and nothing is built per call but the findings.
 */
export function runChecks<P extends Phase>(
  phase: P,
  context: Phases[P],
  only?: (rule: Rule) => boolean,
): FindingOf<RuleId>[] {
  const out: FindingOf<RuleId>[] = [];
  for (const { rule, run, raise } of checksIn(phase)) {
    if (only && !only(rule)) continue;
    // Each finding is raised through its own rule's `raise`, so its id is that rule's: a RuleId.
    for (const finding of run(context as never, raise)) out.push(finding as FindingOf<RuleId>);
  }
  return out;
}

export function isRuleId(value: string): value is RuleId {
  return Object.hasOwn(RULES, value);
}

/**
 * The most severe a rule's findings are by default: its severity, or above it where some of its
 * findings are filed higher on purpose (class-relaxed of a delete tool). Setting the rule to
 * anything below this in a config lowers those findings too.
 */
export function highestSeverity(rule: RuleId): Severity {
  const entry: Rule = RULES[rule];
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
