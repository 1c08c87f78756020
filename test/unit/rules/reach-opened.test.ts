import { ruleTable } from '../../support/rule-table.js';

ruleTable('reach-opened', {
  raises: [
    {
      name: 'openWorldHint false to true',
      case: {
        before: [{ name: 'b', annotations: { openWorldHint: false } }],
        after: [{ name: 'b', annotations: { openWorldHint: true } }],
      },
      findings: [
        {
          tool: 'b',
          severity: 'warning',
          message: 'Reach opened from closed to open world: it may now talk to external systems.',
          fix: 'Confirm the tool should reach outside, or declare openWorldHint: false.',
        },
      ],
    },
    {
      // An absent openWorldHint means open world.
      name: 'openWorldHint false dropped',
      case: {
        before: [{ name: 'b', annotations: { openWorldHint: false } }],
        after: [{ name: 'b' }],
      },
      findings: [{ tool: 'b' }],
    },
  ],
  passes: [
    {
      name: 'open to closed',
      case: {
        before: [{ name: 'b' }],
        after: [{ name: 'b', annotations: { openWorldHint: false } }],
      },
    },
    { name: 'a new open tool', case: { before: [], after: [{ name: 'b' }] } },
  ],
});
