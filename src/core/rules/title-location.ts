import { defineRule } from './rule.js';

export default defineRule({
  id: 'title-location',
  severity: 'warning',
  approvable: false,
  summary: 'the title is only in Tool.title, not in annotations.title',
  clears: 'also set `annotations.title`',
});
