import { ruleTable } from '../../support/rule-table.js';

ruleTable('hint-dropped', {
  raises: [
    {
      name: 'a declared hint left out, even where the default equals it',
      case: {
        before: [{ name: 'x', annotations: { readOnlyHint: false, destructiveHint: true } }],
        after: [{ name: 'x', annotations: { readOnlyHint: false } }],
      },
      findings: [
        {
          tool: 'x',
          severity: 'error',
          message: 'destructiveHint (was true) no longer declared; clients now assume the default.',
          hints: ['destructiveHint'],
          fix: 'Declare destructiveHint: true again, even where it equals the default. If dropping it is intended, the approval label (or a waiver with a reason) accepts it.',
        },
      ],
    },
    {
      name: 'two hints dropped: one finding naming both',
      case: {
        before: [{ name: 'x', annotations: { readOnlyHint: true, openWorldHint: false } }],
        after: [{ name: 'x' }],
      },
      findings: [
        {
          message:
            'readOnlyHint (was true), openWorldHint (was false) no longer declared; clients now assume the default.',
          hints: ['readOnlyHint', 'openWorldHint'],
        },
      ],
    },
    {
      name: "a tool removed while a newcomer on another removed tool's schema lacks its hints",
      case: {
        before: [
          {
            name: 'delete_note',
            inputSchema: { type: 'object', properties: { id: { type: 'string' } } },
            annotations: { destructiveHint: true, openWorldHint: false },
          },
          { name: 'purge', annotations: { destructiveHint: true } },
        ],
        after: [{ name: 'delete_note_v2', annotations: { destructiveHint: true } }],
      },
      findings: [
        {
          tool: 'delete_note',
          message:
            'Removed while delete_note_v2 came in the same change: if it replaces this tool, openWorldHint (was false) no longer declared; clients now assume the default.',
          hints: ['openWorldHint'],
        },
      ],
    },
  ],
  passes: [
    {
      name: 'a hint declared with another value',
      case: {
        before: [{ name: 'x', annotations: { readOnlyHint: true } }],
        after: [{ name: 'x', annotations: { readOnlyHint: false } }],
      },
    },
    {
      name: 'a hint added',
      case: {
        before: [{ name: 'x' }],
        after: [{ name: 'x', annotations: { readOnlyHint: true } }],
      },
    },
    {
      name: 'a tool removed with its hints (tool-removed says so)',
      case: { before: [{ name: 'x', annotations: { readOnlyHint: true } }], after: [] },
    },
  ],
});
