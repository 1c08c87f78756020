import type { ToolChange } from '../core/change.js';
import { classWord } from '../core/change.js';
import type { Finding } from '../core/findings.js';
import { JUSTIFIED } from '../core/justifications.js';
import { hintText } from '../core/text.js';
import { codeSpanSafe } from '../escape.js';

/*
 * The stale hint justifications, each beside the class change that made it stale: which
 * justification of OpenAI's file to rewrite, for the comment and the job summary. Tool text is
 * escaped for a code span.
 */

/** The heading of the stale justifications, in the comment and the job summary. */
export const STALE_TITLE = 'OpenAI hint justifications now false: rewrite them';

/** The most stale tools listed; the findings table has the rest. */
const MAX_LINES = 50;

/** One line per tool whose justification is now false: its change, and what to rewrite. */
export function staleJustificationLines(findings: Finding[], changes: ToolChange[]): string[] {
  const stale = findings.filter((f) => f.rule === 'justification-stale' && !f.waived);
  const lines = stale.slice(0, MAX_LINES).map((f) => {
    const name = f.tool ?? '';
    const change = changes.find((c) => c.tool === name && c.kind !== 'removed');
    const { before, after } = change ?? {};
    const moves = (change?.hints ?? []).filter((m) => f.hints?.includes(m.hint));
    const what = [
      ...(before &&
      after &&
      classWord(before.class, before.reach) !== classWord(after.class, after.reach)
        ? [
            `class \`${classWord(before.class, before.reach)}\` → \`${classWord(after.class, after.reach)}\``,
          ]
        : []),
      ...moves.map((m) => `${m.hint} \`${hintText(m.before)}\` → \`${hintText(m.after)}\``),
    ];
    const keys = JUSTIFIED.filter(([hint]) => f.hints?.includes(hint)).map(
      ([, key]) => `\`${key}\``,
    );
    return `- **\`${codeSpanSafe(name, 64)}\`**${what.length ? ` (${what.join(', ')} in this change)` : ''}: rewrite ${keys.join(', ')}.`;
  });
  if (stale.length > MAX_LINES)
    lines.push(`- …and ${stale.length - MAX_LINES} more (see the findings).`);
  return lines;
}

/** The stale justifications under `title` (the comment's heading, or the summary's), or nothing. */
export function staleJustificationSection(
  findings: Finding[],
  changes: ToolChange[],
  title: string,
): string[] {
  const lines = staleJustificationLines(findings, changes);
  return lines.length ? [title, '', ...lines, ''] : [];
}
