import { ruleTable } from '../../support/rule-table.js';

ruleTable('malformed-tool', {
  raises: [
    {
      name: 'a tool the listing could not validate',
      case: { tools: [], malformed: [{ label: '#2', problems: ['name: expected string'] }] },
      findings: [
        {
          tool: '#2',
          severity: 'error',
          message: 'The tool fails validation: name: expected string.',
          fix: 'Fix the tool definition so each annotation is a boolean and the tool has a string name.',
        },
      ],
    },
  ],
  passes: [{ name: 'every tool valid', case: { tools: [{ name: 'a' }] } }],
});
