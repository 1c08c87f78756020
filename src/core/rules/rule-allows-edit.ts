import { allowsUnasked } from '../client-words.js';
import { defineRule } from './rule.js';

export default defineRule({
  id: 'rule-allows-edit',
  severity: 'warning',
  approvable: false,
  summary: 'a client rule or default lets an edit tool run without asking',
  clears: '`rules --write` (or fix the rule), or map the class to allow in `clientRules`',
  check: { phase: 'client', run: (context, raise) => allowsUnasked('edit', context, raise) },
});
