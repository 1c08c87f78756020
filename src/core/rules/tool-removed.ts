import { defineRule } from './rule.js';

export default defineRule({
  id: 'tool-removed',
  severity: 'notice',
  approvable: false,
  summary: 'a tool of the base class list is gone',
  clears: 'nothing to clear (a notice): `update` records it',
});
