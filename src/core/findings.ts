import { terminalSafe } from '../escape.js';
import type { FindingOf } from './finding-types.js';
import { RULES, type RuleId } from './rules.js';
import { findingOf, type FindingExtra } from './rules/rule.js';

/** A finding of one of the registry's rules (its shape: core/finding-types.ts). */
export type Finding = FindingOf<RuleId>;

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
