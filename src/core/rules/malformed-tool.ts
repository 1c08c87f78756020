import { defineRule } from './rule.js';

export default defineRule({
  id: 'malformed-tool',
  severity: 'error',
  approvable: false,
  summary: 'a tool that fails validation',
  clears: 'fix the tool definition',
});
