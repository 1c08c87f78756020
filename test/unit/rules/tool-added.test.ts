import { ruleTable } from '../../support/rule-table.js';

ruleTable('tool-added', {
  raises: [
    {
      name: 'a tool not in the base',
      case: { before: [], after: [{ name: 'n', annotations: { readOnlyHint: true } }] },
      findings: [
        {
          tool: 'n',
          severity: 'notice',
          message: 'New tool, class read (open).',
          fix: 'Check that the class matches what the tool does.',
        },
      ],
    },
  ],
  passes: [
    { name: 'a tool kept', case: { before: [{ name: 'n' }], after: [{ name: 'n' }] } },
    {
      name: 'a rename with the same schema (tool-renamed says so)',
      case: {
        before: [{ name: 'old', inputSchema: { type: 'object', properties: { id: {} } } }],
        after: [{ name: 'new', inputSchema: { type: 'object', properties: { id: {} } } }],
      },
    },
  ],
});
