import { undeclaredHints } from '../classify.js';
import { list } from '../text.js';
import { defineRule } from './rule.js';

export default defineRule({
  id: 'policy-openai',
  severity: 'error',
  approvable: false,
  policy: 'openai',
  summary: 'misses what the OpenAI Apps SDK requires',
  clears:
    'declare the three hints, even where they equal the default, or a waiver; not the label, not `update`',
  check: {
    phase: 'tool',
    run: ({ tool }, raise) => {
      const missing = undeclaredHints(tool, ['readOnlyHint', 'destructiveHint', 'openWorldHint']);
      if (!missing.length) return [];
      return [
        raise(
          tool.name,
          `The OpenAI Apps SDK requires readOnlyHint, destructiveHint and openWorldHint; ${list(missing)} ${missing.length > 1 ? 'are' : 'is'} not declared.`,
          { hints: missing, fix: 'Declare each hint, even where it equals the default.' },
        ),
      ];
    },
  },
});
