import { allowsUnasked } from '../client-words.js';
import { defineRule } from './rule.js';

export default defineRule({
  id: 'rule-allows-delete',
  severity: 'error',
  approvable: false,
  summary: 'a client rule or default lets a delete tool run without asking',
  clears: '`rules --write` (or fix the rule), or map the class to allow in `clientRules`',
  check: { phase: 'client', run: (context, raise) => allowsUnasked('delete', context, raise) },
});
