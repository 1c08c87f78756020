import { defineRule } from './rule.js';

export default defineRule({
  id: 'duplicate-tool',
  severity: 'error',
  approvable: false,
  summary: 'two tools with one name',
  clears: 'rename one of the two',
});
