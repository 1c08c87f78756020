import { problemCheck } from '../client-words.js';
import { defineRule } from './rule.js';

export default defineRule({
  id: 'rule-shadowed',
  severity: 'notice',
  approvable: false,
  summary: 'a client allow rule made dead by a broader ask or deny',
  clears: 'remove the dead allow rule',
  check: { phase: 'client', run: problemCheck('rule-shadowed', 'decides nothing:') },
});
