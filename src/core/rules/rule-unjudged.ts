import { problemCheck } from '../client-words.js';
import { defineRule } from './rule.js';

export default defineRule({
  id: 'rule-unjudged',
  severity: 'error',
  approvable: false,
  summary:
    'a client setting that can let tools run unasked, which the check does not judge (opencode: an agent’s own permission or tools, which override the global ones)',
  clears: 'move the rules to the settings the check judges (opencode: the global permission)',
  // Fail closed: what the check cannot judge is never taken to allow nothing.
  check: { phase: 'client', run: problemCheck('rule-unjudged', 'is not judged by the check:') },
});
