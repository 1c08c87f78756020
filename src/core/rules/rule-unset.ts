import { defineRule } from './rule.js';

export default defineRule({
  id: 'rule-unset',
  severity: 'notice',
  approvable: false,
  summary: 'a recorded tool no Claude Code rule decides (the client asks by default)',
  clears: '`rules --write`',
});
