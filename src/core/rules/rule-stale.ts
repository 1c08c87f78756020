import { problemCheck } from '../client-words.js';
import { defineRule } from './rule.js';

export default defineRule({
  id: 'rule-stale',
  severity: 'notice',
  approvable: false,
  summary: 'a client rule naming a server or tool the class list does not record',
  clears: '`rules --write`, or remove the rule',
  check: { phase: 'client', run: problemCheck('rule-stale', 'names') },
});
