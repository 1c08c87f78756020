import { ruleTable } from '../../support/rule-table.js';

const schema = (field: string) => ({ type: 'object', properties: { [field]: { type: 'string' } } });

ruleTable('tool-renamed', {
  raises: [
    {
      name: 'a removed and an added tool with one input schema',
      case: {
        before: [{ name: 'old', inputSchema: schema('id') }],
        after: [{ name: 'new', inputSchema: schema('id') }],
      },
      findings: [
        { tool: 'new', severity: 'notice', message: 'Renamed from old (same input schema).' },
      ],
    },
    {
      name: 'a probable rename: another schema, a hint dropped',
      case: {
        before: [{ name: 'old', inputSchema: schema('id'), annotations: { readOnlyHint: true } }],
        after: [{ name: 'older', inputSchema: schema('q') }],
      },
      findings: [
        {
          tool: 'older',
          message:
            "Probably renamed from old: old was removed and this tool, with another input schema, was added with old's hints dropped or its class relaxed, so the two are compared as one tool.",
          fix: 'If older is a new tool rather than old renamed, review what it declares and approve the findings with the approval label.',
        },
      ],
    },
  ],
  passes: [
    {
      name: 'two candidates of one schema',
      case: {
        before: [{ name: 'old', inputSchema: schema('id') }],
        after: [
          { name: 'new', inputSchema: schema('id') },
          { name: 'other', inputSchema: schema('id') },
        ],
      },
    },
    { name: 'a tool kept', case: { before: [{ name: 'a' }], after: [{ name: 'a' }] } },
  ],
});
