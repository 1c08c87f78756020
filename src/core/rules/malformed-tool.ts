import { defineRule } from './rule.js';

export default defineRule({
  id: 'malformed-tool',
  severity: 'error',
  approvable: false,
  summary: 'a tool that fails validation',
  clears: 'fix the tool definition',
  check: {
    phase: 'listing',
    run: ({ malformed }, raise) =>
      malformed.map((m) =>
        raise(m.label, `The tool fails validation: ${m.problems.join('; ')}.`, {
          fix: 'Fix the tool definition so each annotation is a boolean and the tool has a string name.',
        }),
      ),
  },
});
