import { ruleTable } from '../../support/rule-table.js';

ruleTable('class-relaxed', {
  raises: [
    {
      name: 'delete to edit: an error',
      case: {
        before: [{ name: 'a', annotations: { destructiveHint: true } }],
        after: [{ name: 'a', annotations: { destructiveHint: false } }],
      },
      findings: [
        {
          tool: 'a',
          severity: 'error',
          message:
            'Class relaxed from delete to edit: clients will auto-approve what they used to ask about.',
          fix: 'Confirm the tool no longer deletes or overwrites anything: it may still change data, but only by adding or updating. If so, the approval label (or a waiver with a reason) accepts the relaxed class.',
        },
      ],
    },
    {
      name: 'edit to read: a warning',
      case: {
        before: [{ name: 'a', annotations: { destructiveHint: false } }],
        after: [{ name: 'a', annotations: { readOnlyHint: true } }],
      },
      findings: [
        {
          severity: 'warning',
          message:
            'Class relaxed from edit to read: clients will auto-approve what they used to ask about.',
          fix: 'Confirm the tool really no longer modifies or destroys anything. If so, the approval label (or a waiver with a reason) accepts the relaxed class.',
        },
      ],
    },
    {
      name: 'a delete tool removed while a read tool took the schema of another removed one',
      case: {
        before: [
          {
            name: 'delete_note',
            inputSchema: { type: 'object', properties: { id: { type: 'string' } } },
            annotations: { destructiveHint: true },
          },
          { name: 'list_notes', annotations: { readOnlyHint: true } },
        ],
        after: [{ name: 'delete_note_v2', annotations: { readOnlyHint: true } }],
      },
      findings: [
        {
          tool: 'delete_note',
          severity: 'error',
          message:
            'Removed while delete_note_v2 (read) came in the same change: if it replaces this tool, the class relaxed from delete to read: clients will auto-approve what they used to ask about.',
          fix: 'Confirm the tool really no longer modifies or destroys anything. If so, the approval label (or a waiver with a reason) accepts the relaxed class.',
        },
      ],
    },
  ],
  passes: [
    {
      name: 'a delete tool removed beside a newcomer no lower than it',
      case: {
        before: [{ name: 'delete_note', annotations: { destructiveHint: true } }],
        after: [{ name: 'erase_note', annotations: { destructiveHint: true } }],
      },
    },
    {
      name: 'read to delete (class-escalated says so)',
      case: {
        before: [{ name: 'a', annotations: { readOnlyHint: true } }],
        after: [{ name: 'a' }],
      },
    },
    {
      name: 'the class kept while hints change',
      case: {
        before: [{ name: 'a', annotations: { readOnlyHint: true, openWorldHint: false } }],
        after: [{ name: 'a', annotations: { readOnlyHint: true, openWorldHint: true } }],
      },
    },
  ],
});
