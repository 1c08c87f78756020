import { terminalSafe } from '../../escape.js';
import { defineRule } from './rule.js';

export default defineRule({
  id: 'class-list-moved',
  severity: 'notice',
  approvable: false,
  summary: 'the class list is at another path than at the base commit: the two files are compared',
  clears: 'nothing to clear (a notice)',
  check: {
    phase: 'run',
    run: ({ movedClassList: moved }, raise) =>
      moved
        ? [
            raise(
              undefined,
              terminalSafe(
                `The class list is ${moved.head} now, but ${moved.base} at ${moved.label}: the two are compared.`,
                600,
              ),
            ),
          ]
        : [],
  },
});
