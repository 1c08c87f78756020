import { defineRule } from './rule.js';

export default defineRule({
  id: 'policy-claude',
  severity: 'error',
  approvable: false,
  policy: 'claude',
  summary: 'misses what the Claude connector directory requires',
  clears:
    'declare what it names (a title, `readOnlyHint` or `destructiveHint`), or a waiver; not the label, not `update`',
});
