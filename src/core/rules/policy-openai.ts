import { defineRule } from './rule.js';

export default defineRule({
  id: 'policy-openai',
  severity: 'error',
  approvable: false,
  policy: 'openai',
  summary: 'misses what the OpenAI Apps SDK requires',
  clears:
    'declare the three hints, even where they equal the default, or a waiver; not the label, not `update`',
});
