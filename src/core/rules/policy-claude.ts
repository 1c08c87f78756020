import { hasTitle, undeclaredHints } from '../classify.js';
import { list } from '../text.js';
import { defineRule } from './rule.js';

const NAME_LIMIT = 64;

/** What fixes a Claude finding: annotations to declare, a name to shorten, or both. */
function claudeFix(annotations: boolean, tooLong: boolean): string {
  const limit = `at most ${NAME_LIMIT} characters`;
  if (!annotations) return `Shorten the tool name to ${limit}.`;
  return `Declare the missing annotations on the tool${tooLong ? `, and shorten its name to ${limit}` : ''}.`;
}

export default defineRule({
  id: 'policy-claude',
  severity: 'error',
  approvable: false,
  policy: 'claude',
  summary: 'misses what the Claude connector directory requires',
  clears:
    'declare what it names (a title, `readOnlyHint` or `destructiveHint`), or a waiver; not the label, not `update`',
  check: {
    phase: 'tool',
    run: ({ tool }, raise) => {
      const missing: string[] = [];
      if (!hasTitle(tool)) missing.push('a title (annotations.title)');
      // Either hint would do: both are named, so a dropped one shows as required (core/advice.ts).
      const hints = undeclaredHints(tool, ['readOnlyHint', 'destructiveHint']);
      if (hints.length === 2) missing.push('readOnlyHint or destructiveHint');
      const annotations = missing.length > 0;
      const tooLong = tool.name.length > NAME_LIMIT;
      if (tooLong)
        missing.push(`a name of at most ${NAME_LIMIT} characters (it has ${tool.name.length})`);
      if (!missing.length) return [];
      return [
        raise(tool.name, `The Claude connector directory requires ${list(missing)}.`, {
          fix: claudeFix(annotations, tooLong),
          ...(hints.length === 2 ? { hints } : {}),
        }),
      ];
    },
  },
});
