import { ruleTable } from '../../support/rule-table.js';

const FOUR = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

ruleTable('policy-explicit', {
  raises: [
    {
      name: 'no title and one hint missing',
      case: {
        tool: {
          name: 'a',
          annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
        },
      },
      findings: [
        {
          tool: 'a',
          severity: 'error',
          message: 'The explicit profile requires title and idempotentHint to be declared.',
          fix: 'Declare a title and all four hints, even where they equal the default.',
          hints: ['idempotentHint'],
        },
      ],
    },
    {
      name: 'only the title missing: no hints named',
      case: { tool: { name: 'a', annotations: FOUR } },
      findings: [{ message: 'The explicit profile requires title to be declared.' }],
    },
  ],
  passes: [
    {
      name: 'a title and all four hints',
      case: { tool: { name: 'a', annotations: { title: 'A', ...FOUR } } },
    },
    {
      name: 'the title in Tool.title',
      case: { tool: { name: 'a', title: 'A', annotations: FOUR } },
    },
  ],
});
