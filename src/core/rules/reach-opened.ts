import { defineRule } from './rule.js';

export default defineRule({
  id: 'reach-opened',
  severity: 'warning',
  approvable: false,
  summary: 'closed to open world',
  clears: 'declare `openWorldHint: false` if the tool stays closed; else a waiver',
  check: {
    phase: 'change',
    run: ({ change: { tool, before, after } }, raise) =>
      before?.reach === 'closed' && after?.reach === 'open'
        ? [
            raise(
              tool,
              'Reach opened from closed to open world: it may now talk to external systems.',
              { fix: 'Confirm the tool should reach outside, or declare openWorldHint: false.' },
            ),
          ]
        : [],
  },
});
