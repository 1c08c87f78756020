import { movedFrom, type ToolChange } from '../../core/diff.js';
import { codeSpanSafe } from '../../escape.js';
import { mappedDecision, type RuleMapping } from './claude-settings.js';
import type { ClaudeCodeDecision } from './client-rules.js';
import type { Decision } from './permissions.js';

/*
 * What a PR's class changes do to the repository's Claude Code rules, for the PR comment: each
 * changed tool's rule under the mapping before and after, what the checked settings decide for
 * it, and whether they now disagree. Pure: the decisions are already on the report's tools.
 */

/** What the comment needs to say it: the mapping, and the command that brings the settings in line. */
export interface RuleNotesContext {
  mapping: RuleMapping;
  /** The `rules --write` command, pinned to this version (NPX_COMMAND). */
  writeCommand: string;
}

/** Enough lines to show a typical PR in full; a huge one is summed up. */
const MAX_NOTES = 20;

const VERB: Record<Decision, string> = { allow: 'allows', ask: 'asks for', deny: 'denies' };

/** What the change did to the tool, in a few words. */
function movement(change: ToolChange): string {
  const { before, after } = change;
  if (change.kind === 'added') return 'is new';
  const from = movedFrom(change);
  // A move keeps its name, most often: "renamed from" itself would say nothing.
  if (from !== undefined)
    return `was ${change.probable ? 'probably ' : ''}moved from server \`${codeSpanSafe(from, 64)}\`${before?.tool === change.tool ? '' : ` (was \`${codeSpanSafe(before?.tool ?? '', 64)}\`)`}`;
  if (change.kind === 'renamed')
    return `was ${change.probable ? 'probably ' : ''}renamed from \`${codeSpanSafe(before?.tool ?? '', 64)}\``;
  if (before && after && before.class !== after.class)
    return `moved ${before.class} -> ${after.class}`;
  if (before && after && before.reach !== after.reach)
    return `changed reach ${before.reach} -> ${after.reach}`;
  return 'changed';
}

/** What the settings decide for the tool, and whether that is what the mapping says. */
function settingsPart(
  decided: ClaudeCodeDecision,
  now: Decision,
  writeCommand: string,
): { text: string; agrees: boolean } {
  // No rule: Claude Code asks, which is all an `ask` mapping wants.
  const effective = decided.decision === 'unset' ? 'ask' : decided.decision;
  const agrees = effective === now;
  const where =
    decided.decision === 'unset'
      ? 'no rule in the checked settings decides it (Claude Code asks)'
      : `\`${codeSpanSafe(decided.file ?? '', 120)}\` ${VERB[decided.decision]} it (\`${codeSpanSafe(decided.rule ?? '', 120)}\`${decided.line !== undefined ? `, line ${decided.line}` : ''})`;
  return agrees
    ? { text: `${where}, as the mapping says.`, agrees }
    : {
        text: `${where}; the class list now maps it to **${now}**. Run \`${codeSpanSafe(writeCommand, 300)}\`.`,
        agrees,
      };
}

/** What the notes read of a server's report: its changes, and its tools' decisions. */
export interface ChangedServer {
  changes: ToolChange[];
  tools: { fullName: string; claudeCode?: ClaudeCodeDecision }[];
}

/** One markdown list item per changed tool; empty when the server has no changes. */
export function ruleNotes(report: ChangedServer, context: RuleNotesContext): string[] {
  const notes: string[] = [];
  let disagree = 0;
  for (const change of report.changes) {
    const tool = `\`${codeSpanSafe(change.tool, 64)}\``;
    const was =
      change.before &&
      mappedDecision(context.mapping, change.renamedFrom ?? change.name, change.before);
    const now = change.after && mappedDecision(context.mapping, change.name, change.after);
    if (now === undefined) {
      notes.push(
        `- ${tool} was removed${was ? ` (the class list mapped it to ${was})` : ''}: a rule that still names it is stale (\`rule-stale\`).`,
      );
      continue;
    }
    const rule = was === undefined || was === now ? `rule ${now}` : `rule ${was} -> **${now}**`;
    const decided = report.tools.find((t) => t.fullName === change.name)?.claudeCode;
    const part = decided && settingsPart(decided, now, context.writeCommand);
    if (part && !part.agrees) disagree++;
    notes.push(`- ${tool} ${movement(change)} (${rule})${part ? `: ${part.text}` : '.'}`);
  }
  if (notes.length > MAX_NOTES) {
    const left = notes.length - MAX_NOTES;
    notes.splice(MAX_NOTES);
    notes.push(
      `- _…and ${left} more changed tools; ${disagree} of all ${left + MAX_NOTES} disagree with the settings. \`rules --write\` brings the settings in line with the class list._`,
    );
  }
  return notes;
}
