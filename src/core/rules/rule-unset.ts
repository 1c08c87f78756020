import { DOES, verdictCause } from '../client-words.js';
import { defineRule } from './rule.js';

export default defineRule({
  id: 'rule-unset',
  severity: 'notice',
  approvable: false,
  summary:
    'a recorded tool no client rule decides (the client then asks, hides or refuses it by default)',
  clears: '`rules --write`',
  check: {
    phase: 'client',
    // Decided by no rule: what the client does by itself (an allow by itself is the other rules').
    run: ({ client, tool, rulesCommand }, raise) => {
      if (!tool || tool.verdict.rule !== undefined || tool.verdict.decision === 'allow') return [];
      const { verdict, expected } = tool;
      return [
        raise(
          tool.name,
          `No rule of ${client.label} decides ${tool.class} tool ${tool.named}: it ${DOES[verdict.decision]} (${verdictCause(verdict)})${verdict.decision !== expected ? `; the class list maps it to ${expected}` : ''}.`,
          { fix: `Run ${rulesCommand}.` },
        ),
      ];
    },
  },
});
