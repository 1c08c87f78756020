import { ruleTable } from '../../support/rule-table.js';

ruleTable('tool-removed', {
  raises: [
    {
      name: 'a tool of the base gone',
      case: { before: [{ name: 'g', annotations: { openWorldHint: false } }], after: [] },
      findings: [{ tool: 'g', severity: 'notice', message: 'Removed; it was delete (closed).' }],
    },
  ],
  passes: [
    { name: 'a tool added', case: { before: [], after: [{ name: 'g' }] } },
    { name: 'a tool kept', case: { before: [{ name: 'g' }], after: [{ name: 'g' }] } },
  ],
});
