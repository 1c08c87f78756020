import { terminalSafe } from '../escape.js';
import type { HintName } from './tools.js';
import { RULES, type RuleId, type Severity } from './rules.js';
import { findingOf, type FindingExtra } from './rules/rule.js';

export interface Finding {
  rule: RuleId;
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

/** A finding at the rule's default severity. */
export function finding(
  rule: RuleId,
  tool: string | undefined,
  message: string,
  extra: FindingExtra = {},
): Finding {
  return findingOf(RULES[rule], tool, message, extra);
}

/** A finding as one line of plain text (tool, message, fix), safe for logs and SARIF. */
export function findingText(f: Finding): string {
  return terminalSafe(
    `${f.tool !== undefined ? `${f.tool}: ` : ''}${f.message}${f.fix ? ` ${f.fix}` : ''}`,
    600,
  );
}
