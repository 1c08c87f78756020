import { defineRule } from './rule.js';

export default defineRule({
  id: 'rule-unset',
  severity: 'notice',
  approvable: false,
  summary:
    'a recorded tool no client rule decides (the client then asks, hides or refuses it by default)',
  clears: '`rules --write`',
});
