import { ruleTable } from '../../support/rule-table.js';

ruleTable('hint-contradiction', {
  raises: [
    {
      name: 'readOnlyHint and destructiveHint both true',
      case: { tool: { name: 'x', annotations: { readOnlyHint: true, destructiveHint: true } } },
      findings: [
        {
          tool: 'x',
          severity: 'warning',
          message:
            'readOnlyHint is true and destructiveHint is true: clients ignore destructiveHint on a read tool, so it stays read, but this is almost always a mistake.',
          fix: 'Set destructiveHint to false on a read-only tool, or readOnlyHint to false.',
        },
      ],
    },
  ],
  passes: [
    {
      name: 'a read tool that is not destructive',
      case: { tool: { name: 'x', annotations: { readOnlyHint: true, destructiveHint: false } } },
    },
    {
      // destructiveHint defaults to true, but only a declared true contradicts.
      name: 'a read tool with destructiveHint left out',
      case: { tool: { name: 'x', annotations: { readOnlyHint: true } } },
    },
  ],
});
