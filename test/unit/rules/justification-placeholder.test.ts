import { ruleTable } from '../../support/rule-table.js';
import { entry, facts } from '../../support/justification-facts.js';
import { placeholderOf } from '../../../src/core/justifications.js';

ruleTable('justification-placeholder', {
  raises: [
    {
      name: "the auditor's placeholders left in",
      case: facts([true, false, false], {
        entry: entry([true, false, false], {
          read_only_justification: placeholderOf('readOnlyHint', true),
          destructive_justification: '  ',
        }),
      }),
      findings: [
        {
          tool: 'list_notes',
          server: 'notes',
          severity: 'warning',
          hints: ['readOnlyHint', 'destructiveHint'],
          message:
            'read_only_justification and destructive_justification in j.json are still to be written.',
        },
      ],
    },
    {
      name: 'a justification the entry lacks',
      case: facts([true, false, false], {
        entry: { annotations: entry([true, false, false]).annotations, justifications: {} },
      }),
      findings: [{ hints: ['readOnlyHint', 'openWorldHint', 'destructiveHint'] }],
    },
  ],
  passes: [
    {
      name: 'every justification written',
      case: facts([true, false, false], { entry: entry([true, false, false]) }),
    },
    {
      name: "a stale hint's placeholder (justification-stale reports it)",
      case: facts([false, false, false], {
        entry: entry([true, false, false], { read_only_justification: 'TODO: later' }),
      }),
    },
  ],
});
