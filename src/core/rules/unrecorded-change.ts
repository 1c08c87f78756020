import { defineRule } from './rule.js';

export default defineRule({
  id: 'unrecorded-change',
  severity: 'error',
  approvable: false,
  summary: 'live tools differ from the class list: run update and commit',
  clears: '`update` and a commit of the class list (the command is printed)',
});
