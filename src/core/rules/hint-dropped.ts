import { hintText } from '../text.js';
import { defineRule } from './rule.js';

export default defineRule({
  id: 'hint-dropped',
  severity: 'error',
  approvable: true,
  summary: 'a hint declared before is absent now',
  clears:
    'declare the hint again with the value it had; if the drop is intended, the label or a waiver (locally, `update` and a commit, since the CLI then compares with HEAD)',
  check: {
    phase: 'change',
    run: ({ change }, raise) => {
      if (!change.before || !change.after) return [];
      const dropped = change.hints.filter((m) => m.before !== 'absent' && m.after === 'absent');
      if (!dropped.length) return [];
      return [
        raise(
          change.tool,
          `${dropped.map((m) => `${m.hint} (was ${hintText(m.before)})`).join(', ')} no longer declared; clients now assume the default.`,
          {
            hints: dropped.map((m) => m.hint),
            fix: `Declare ${dropped.map((m) => `${m.hint}: ${hintText(m.before)}`).join(', ')} again, even where it equals the default. If dropping it is intended, the approval label (or a waiver with a reason) accepts it.`,
          },
        ),
      ];
    },
  },
});
