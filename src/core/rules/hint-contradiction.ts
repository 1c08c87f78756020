import { defineRule } from './rule.js';

export default defineRule({
  id: 'hint-contradiction',
  severity: 'warning',
  approvable: false,
  summary: 'readOnlyHint true with destructiveHint true',
  clears: 'set one of the two hints to false',
});
