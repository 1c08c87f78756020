import { CLASS_RANK } from '../change.js';
import { defineRule } from './rule.js';

export default defineRule({
  id: 'class-escalated',
  severity: 'notice',
  approvable: false,
  summary: 'read to edit/delete, or edit to delete',
  clears: 'nothing to clear (a notice): `update` records it',
  check: {
    phase: 'change',
    run: ({ change: { tool, before, after } }, raise) =>
      before && after && CLASS_RANK[after.class] > CLASS_RANK[before.class]
        ? [raise(tool, `Class escalated from ${before.class} to ${after.class}.`)]
        : [],
  },
});
