import type { ClassifiedTool } from './classify.js';
import type { Finding } from './findings.js';
import type { Policy } from './policy-names.js';
import { runChecks } from './rules.js';
import type { Rule } from './rules/rule.js';
import type { MalformedTool } from './tools.js';

/* A server's listing checked: the rules that always hold, then each enabled profile's. */

export const DEFAULT_POLICIES: Policy[] = ['claude', 'openai'];

/**
 * The listing rules (malformed and duplicate tools), then tool by tool the rules that hold
 * whatever profiles are enabled (names, one consistency lint), then tool by tool each enabled
 * profile's rules, in the order the profiles are given.
 */
export function checkPolicies(
  tools: ClassifiedTool[],
  malformed: MalformedTool[],
  policies: readonly Policy[],
): Finding[] {
  const out = runChecks('listing', { tools, malformed });
  const always = (rule: Rule) => !rule.policy;
  for (const tool of tools) out.push(...runChecks('tool', { tool }, always));
  const ofPolicy = policies.map((policy) => (rule: Rule) => rule.policy === policy);
  for (const tool of tools)
    for (const only of ofPolicy) out.push(...runChecks('tool', { tool }, only));
  return out;
}
