import { hintMoves } from '../change.js';
import { hintText } from '../text.js';
import { defineRule } from './rule.js';

export default defineRule({
  id: 'hint-dropped',
  severity: 'error',
  approvable: true,
  summary:
    'a hint declared before is absent now (a tool removed beside a newcomer lacking it included)',
  clears:
    'declare the hint again with the value it had; if the drop is intended, the label or a waiver (locally, `update` and a commit, since the CLI then compares with HEAD)',
  check: {
    phase: 'change',
    run: ({ change }, raise) => {
      // A tool removed beside a newcomer that would drop its hints is judged as if renamed into it.
      const after = change.kind === 'removed' ? change.successor : change.after;
      if (!change.before || !after) return [];
      const moves = after === change.after ? change.hints : hintMoves(change.before, after);
      const dropped = moves.filter((m) => m.before !== 'absent' && m.after === 'absent');
      if (!dropped.length) return [];
      const lost = `${dropped.map((m) => `${m.hint} (was ${hintText(m.before)})`).join(', ')} no longer declared`;
      return [
        raise(
          change.tool,
          `${after === change.successor ? `Removed while ${after.tool} came in the same change: if it replaces this tool, ${lost}` : lost}; clients now assume the default.`,
          {
            hints: dropped.map((m) => m.hint),
            fix: `Declare ${dropped.map((m) => `${m.hint}: ${hintText(m.before)}`).join(', ')} again, even where it equals the default. If dropping it is intended, the approval label (or a waiver with a reason) accepts it.`,
          },
        ),
      ];
    },
  },
});
