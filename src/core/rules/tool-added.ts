import { defineRule } from './rule.js';

export default defineRule({
  id: 'tool-added',
  severity: 'notice',
  approvable: false,
  summary: 'a tool that was not in the base class list',
  clears: 'nothing to clear (a notice): `update` records it',
});
