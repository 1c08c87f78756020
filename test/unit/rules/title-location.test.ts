import { ruleTable } from '../../support/rule-table.js';

ruleTable('title-location', {
  raises: [
    {
      name: 'a title only in Tool.title',
      case: { tool: { name: 'x', title: 'X', annotations: { readOnlyHint: true } } },
      findings: [
        {
          tool: 'x',
          severity: 'warning',
          message:
            "The title is only in Tool.title; the Claude directory's checklist reads annotations.title.",
          fix: 'Also set annotations.title.',
        },
      ],
    },
    {
      name: 'annotations.title only spaces',
      case: { tool: { name: 'x', title: 'X', annotations: { title: '  ' } } },
      findings: [
        {
          message:
            "The title is only in Tool.title (annotations.title is blank); the Claude directory's checklist reads annotations.title.",
        },
      ],
    },
  ],
  passes: [
    {
      name: 'a title in both places',
      case: { tool: { name: 'x', title: 'X', annotations: { title: 'X' } } },
    },
    { name: 'no title at all (policy-claude says so)', case: { tool: { name: 'x' } } },
    {
      name: 'a title only in annotations',
      case: { tool: { name: 'x', annotations: { title: 'X' } } },
    },
  ],
});
