import { hasTitle, undeclaredHints } from '../classify.js';
import { list } from '../text.js';
import { HINT_NAMES } from '../tools.js';
import { defineRule } from './rule.js';

export default defineRule({
  id: 'policy-explicit',
  severity: 'error',
  approvable: false,
  policy: 'explicit',
  summary: 'misses a title or one of the four hints',
  clears: 'declare a title and all four hints, or a waiver; not the label, not `update`',
  check: {
    phase: 'tool',
    run: ({ tool }, raise) => {
      const hints = undeclaredHints(tool, HINT_NAMES);
      const missing: string[] = [...hints];
      if (!hasTitle(tool)) missing.unshift('title');
      if (!missing.length) return [];
      return [
        raise(tool.name, `The explicit profile requires ${list(missing)} to be declared.`, {
          fix: 'Declare a title and all four hints, even where they equal the default.',
          ...(hints.length ? { hints } : {}),
        }),
      ];
    },
  },
});
