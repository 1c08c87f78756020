import { classWord } from '../change.js';
import { defineRule } from './rule.js';

export default defineRule({
  id: 'tool-removed',
  severity: 'notice',
  approvable: false,
  summary: 'a tool of the base class list is gone',
  clears: 'nothing to clear (a notice): `update` records it',
  check: {
    phase: 'change',
    run: ({ change: { kind, tool, before } }, raise) =>
      kind === 'removed' && before
        ? [raise(tool, `Removed; it was ${classWord(before.class, before.reach)}.`)]
        : [],
  },
});
