import { defineRule } from './rule.js';

export default defineRule({
  id: 'class-escalated',
  severity: 'notice',
  approvable: false,
  summary: 'read to edit/delete, or edit to delete',
  clears: 'nothing to clear (a notice): `update` records it',
});
