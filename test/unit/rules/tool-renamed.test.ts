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
    {
      name: 'a server that now calls itself by another name',
      case: { run: { renamedServer: { from: 'old', name: 'new', unnamed: true } } },
      findings: [
        {
          message:
            'The server now calls itself "new"; the base class list records its tools under "old". They are compared as one server.',
          fix: 'Pin the name with --server-name (the server-name input) so the class list keys stay stable.',
        },
      ],
    },
    {
      name: 'a server named anew in the config',
      case: { run: { renamedServer: { from: 'old', name: 'new', unnamed: false } } },
      findings: [
        {
          message:
            'The base class list records this server\'s tools under "old", and no server of that name is audited now: "new" is taken as "old" renamed, and compared with it tool by tool.',
          fix: 'If "old" was renamed on purpose, nothing more is needed; else give the server back its name (its key in the config file).',
        },
      ],
    },
  ],
  passes: [
    { name: 'no server renamed', case: { run: {} } },
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
