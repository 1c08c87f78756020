import { ruleTable } from '../../support/rule-table.js';

ruleTable('policy-claude', {
  raises: [
    {
      name: 'no title',
      case: { tool: { name: 'a', annotations: { readOnlyHint: true } } },
      findings: [
        {
          tool: 'a',
          severity: 'error',
          message: 'The Claude connector directory requires a title (annotations.title).',
          fix: 'Declare the missing annotations on the tool.',
        },
      ],
    },
    {
      name: 'neither readOnlyHint nor destructiveHint',
      case: { tool: { name: 'a', annotations: { title: 'A', openWorldHint: false } } },
      findings: [
        {
          message: 'The Claude connector directory requires readOnlyHint or destructiveHint.',
          hints: ['readOnlyHint', 'destructiveHint'],
        },
      ],
    },
    {
      name: 'a name over 64 characters, with its own fix',
      case: { tool: { name: 'n'.repeat(65), annotations: { title: 'A', readOnlyHint: true } } },
      findings: [
        {
          message:
            'The Claude connector directory requires a name of at most 64 characters (it has 65).',
          fix: 'Shorten the tool name to at most 64 characters.',
        },
      ],
    },
  ],
  passes: [
    {
      name: 'annotations.title and one deciding hint',
      case: { tool: { name: 'a', annotations: { title: 'A', destructiveHint: true } } },
    },
    {
      name: 'a title in Tool.title only (title-location says so)',
      case: { tool: { name: 'a', title: 'A', annotations: { readOnlyHint: true } } },
    },
  ],
});
