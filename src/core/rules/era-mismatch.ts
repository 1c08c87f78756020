import { defineRule } from './rule.js';

export default defineRule({
  id: 'era-mismatch',
  severity: 'warning',
  approvable: false,
  summary: "a tool's annotations differ between protocol eras",
  clears: 'declare the same annotations in both eras',
});
