import { defineRule } from './rule.js';

export default defineRule({
  id: 'stale-waiver',
  severity: 'warning',
  approvable: false,
  summary: 'a waiver that no longer matches anything, or has expired',
  clears: 'remove or renew the waiver',
});
