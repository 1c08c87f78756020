import { defineRule } from './rule.js';

export default defineRule({
  id: 'hint-dropped',
  severity: 'error',
  approvable: true,
  summary: 'a hint declared before is absent now',
  clears:
    'declare the hint again with the value it had; if the drop is intended, the label or a waiver (locally, `update` and a commit, since the CLI then compares with HEAD)',
});
