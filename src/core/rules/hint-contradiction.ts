import { defineRule } from './rule.js';

export default defineRule({
  id: 'hint-contradiction',
  severity: 'warning',
  approvable: false,
  summary: 'readOnlyHint true with destructiveHint true',
  clears: 'set one of the two hints to false',
  check: {
    phase: 'tool',
    run: ({ tool }, raise) =>
      tool.hints.readOnlyHint.value === true && tool.hints.destructiveHint.value === true
        ? [
            raise(
              tool.name,
              'readOnlyHint is true and destructiveHint is true: clients ignore destructiveHint on a read tool, so it stays read, but this is almost always a mistake.',
              {
                fix: 'Set destructiveHint to false on a read-only tool, or readOnlyHint to false.',
              },
            ),
          ]
        : [],
  },
});
