import { ruleTable } from '../../support/rule-table.js';

ruleTable('policy-openai', {
  raises: [
    {
      name: 'openWorldHint not declared',
      case: { tool: { name: 'a', annotations: { readOnlyHint: true, destructiveHint: false } } },
      findings: [
        {
          tool: 'a',
          severity: 'error',
          message:
            'The OpenAI Apps SDK requires readOnlyHint, destructiveHint and openWorldHint; openWorldHint is not declared.',
          hints: ['openWorldHint'],
          fix: 'Declare each hint, even where it equals the default.',
        },
      ],
    },
    {
      name: 'no annotations',
      case: { tool: { name: 'a' } },
      findings: [
        {
          message:
            'The OpenAI Apps SDK requires readOnlyHint, destructiveHint and openWorldHint; readOnlyHint, destructiveHint and openWorldHint are not declared.',
        },
      ],
    },
  ],
  passes: [
    {
      name: 'the three hints declared, even at their defaults, and no title',
      case: {
        tool: {
          name: 'a',
          annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
        },
      },
    },
  ],
});
