import { defineRule } from './rule.js';

export default defineRule({
  id: 'reach-opened',
  severity: 'warning',
  approvable: false,
  summary: 'closed to open world',
  clears: 'declare `openWorldHint: false` if the tool stays closed; else a waiver',
});
