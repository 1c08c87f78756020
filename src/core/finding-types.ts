// The shape of a finding, apart from the registry: core/rules/rule.ts and every rule file name it
// without importing core/rules.ts, so the registry stays a leaf-ward DAG (core/findings.ts ties
// it to the registry's ids as Finding), and the severities. Pure: types and constants.
import type { HintName } from './tools.js';

/** The severities, most severe first. */
export const SEVERITIES = ['error', 'warning', 'notice'] as const;
export type Severity = (typeof SEVERITIES)[number];
/** The fail-on thresholds: a severity, or never (report, never fail). */
export const FAIL_ON_LEVELS = [...SEVERITIES, 'never'] as const;
export type FailOn = (typeof FAIL_ON_LEVELS)[number];

/** A finding whose rule is one of `Id`: Finding (core/findings.ts) is FindingOf<RuleId>. */
export interface FindingOf<Id extends string = string> {
  rule: Id;
  severity: Severity;
  /** The tool's name as the server sent it; absent for findings about the run itself. */
  tool?: string;
  message: string;
  /** What to do about it. */
  fix?: string;
  /** The hints concerned, for hint-dropped and era-mismatch. */
  hints?: HintName[];
  /** Set when a configured waiver covers the finding: it is listed but does not fail the run. */
  waived?: { reason: string; expires?: string };
  /** Set when the approval label turned an approvable error into a notice. */
  approved?: boolean;
  /**
   * The audited server a finding of the run is about, by its class-list name: start-changed,
   * which the audit moves under that server (see pairStartChanges).
   */
  server?: string;
  /** Where the finding points when not at the tool's class-list line: a settings file's rule. */
  location?: { file: string; line: number };
}
