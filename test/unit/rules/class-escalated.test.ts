import { ruleTable } from '../../support/rule-table.js';

ruleTable('class-escalated', {
  raises: [
    {
      name: 'read to delete',
      case: {
        before: [{ name: 'b', annotations: { readOnlyHint: true } }],
        after: [{ name: 'b', annotations: { readOnlyHint: false, destructiveHint: true } }],
      },
      findings: [
        { tool: 'b', severity: 'notice', message: 'Class escalated from read to delete.' },
      ],
    },
  ],
  passes: [
    {
      name: 'delete to read (class-relaxed says so)',
      case: {
        before: [{ name: 'b' }],
        after: [{ name: 'b', annotations: { readOnlyHint: true } }],
      },
    },
    { name: 'a new tool', case: { before: [], after: [{ name: 'b' }] } },
  ],
});
