import { defineRule } from './rule.js';

export default defineRule({
  id: 'rule-shadowed',
  severity: 'notice',
  approvable: false,
  summary: 'a client allow rule made dead by a broader ask or deny',
  clears: 'remove the dead allow rule',
});
