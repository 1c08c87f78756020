import { defineRule } from './rule.js';

export default defineRule({
  id: 'policy-explicit',
  severity: 'error',
  approvable: false,
  policy: 'explicit',
  summary: 'misses a title or one of the four hints',
  clears: 'declare a title and all four hints, or a waiver; not the label, not `update`',
});
