import type { ToolChange } from './diff.js';
import type { Finding } from './findings.js';
import { RULES, type RuleId } from './rules.js';
import type { HintName } from './tools.js';
import { hintText, list } from './text.js';

/*
 * One story for "how do I make this green": a finding's fix says what clears it in the case at
 * hand, and no two fixes of one tool send the user different ways. The case that needs this is a
 * dropped hint that a policy requires: `update` records the drop and the approval label approves
 * it, yet the policy error stays, so the only fix that clears both is to declare the hint again.
 */

/** A policy rule's finding: a requirement that neither `update` nor the approval label clears. */
function isPolicy(f: Finding): boolean {
  return RULES[f.rule].policy !== undefined;
}

/** A dropped hint that a policy requires, with the value it had and the policies requiring it. */
export interface RequiredDrop {
  tool: string;
  hint: HintName;
  /** "readOnlyHint: false": what to declare again. */
  declaration: string;
  policies: RuleId[];
}

/** The hint's declaration as it was before the change: `readOnlyHint: false`. */
function declarationOf(change: ToolChange | undefined, hint: HintName): string {
  const before = change?.hints.find((m) => m.hint === hint)?.before;
  return before === undefined || before === 'absent' ? hint : `${hint}: ${hintText(before)}`;
}

/**
 * The dropped hints of one server that an active (unwaived) policy finding of the same tool
 * still requires, from its findings and its changes.
 */
export function requiredDrops(findings: Finding[], changes: ToolChange[]): RequiredDrop[] {
  const out: RequiredDrop[] = [];
  for (const dropped of findings.filter((f) => f.rule === 'hint-dropped' && !f.waived)) {
    const change = changes.find((c) => c.tool === dropped.tool);
    for (const hint of dropped.hints ?? []) {
      const policies = findings
        .filter(
          (f) => isPolicy(f) && !f.waived && f.tool === dropped.tool && f.hints?.includes(hint),
        )
        .map((f) => f.rule);
      if (policies.length && dropped.tool !== undefined)
        out.push({ tool: dropped.tool, hint, declaration: declarationOf(change, hint), policies });
    }
  }
  return out;
}

/**
 * Rewrites the fixes of one server's findings (after waivers and the approval label) so that
 * they agree on what clears a dropped hint a policy requires: declare it again instead of
 * removing it. The label clears hint-dropped, never a policy error, and the fixes say so.
 */
export function adviseFixes(findings: Finding[], changes: ToolChange[]): void {
  const drops = requiredDrops(findings, changes);
  if (!drops.length) return;
  for (const f of findings) {
    if (f.tool === undefined) continue;
    const mine = drops.filter((d) => d.tool === f.tool);
    if (!mine.length) continue;
    const declare = list(mine.map((d) => d.declaration));
    const policies = list([...new Set(mine.flatMap((d) => d.policies))]);
    if (f.rule === 'hint-dropped')
      f.fix = `Declare ${declare} instead of removing it: ${policies} requires it, and declaring it clears both findings. The approval label clears hint-dropped, not ${policies}.`;
    else if (isPolicy(f) && mine.some((d) => d.policies.includes(f.rule)))
      f.fix = `Declare ${declare} instead of removing it (this change dropped it). Neither update nor the approval label clears ${f.rule}.`;
    else if (f.rule === 'unrecorded-change' && f.fix)
      f.fix = `First declare ${declare} again (see hint-dropped); if this finding is still listed after that, ${f.fix.charAt(0).toLowerCase()}${f.fix.slice(1)}`;
  }
}
