import { ruleTable } from '../../support/rule-table.js';

ruleTable('duplicate-tool', {
  raises: [
    {
      name: 'three tools of one name: one finding',
      case: { tools: [{ name: 'a' }, { name: 'b' }, { name: 'a' }, { name: 'a' }] },
      findings: [
        {
          tool: 'a',
          severity: 'error',
          message: '3 tools share this name; names must be unique within a server.',
          fix: 'Rename one of them.',
        },
      ],
    },
  ],
  passes: [
    { name: 'unique names', case: { tools: [{ name: 'a' }, { name: 'b' }] } },
    // Names are compared as the server sent them.
    { name: 'names that differ in case', case: { tools: [{ name: 'a' }, { name: 'A' }] } },
  ],
});
