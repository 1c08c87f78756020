import { defineRule } from './rule.js';

export default defineRule({
  id: 'tool-name',
  severity: 'error',
  approvable: false,
  summary: "breaks the spec's tool-name rules",
  clears: 'rename the tool',
});
