import { classWord } from '../change.js';
import { defineRule } from './rule.js';

export default defineRule({
  id: 'tool-added',
  severity: 'notice',
  approvable: false,
  summary: 'a tool that was not in the base class list',
  clears: 'nothing to clear (a notice): `update` records it',
  check: {
    phase: 'change',
    run: ({ change: { kind, tool, after } }, raise) =>
      kind === 'added' && after
        ? [
            raise(tool, `New tool, class ${classWord(after.class, after.reach)}.`, {
              fix: 'Check that the class matches what the tool does.',
            }),
          ]
        : [],
  },
});
