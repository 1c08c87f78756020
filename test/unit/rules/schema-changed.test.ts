import { ruleTable } from '../../support/rule-table.js';

const read = { readOnlyHint: true, destructiveHint: false, openWorldHint: false };
const props = (p: Record<string, unknown>) => ({ type: 'object', properties: p });

ruleTable('schema-changed', {
  raises: [
    {
      name: 'an argument added and a type changed: the paths, in key order',
      case: {
        before: [{ name: 'x', inputSchema: props({ id: { type: 'string' } }), annotations: read }],
        after: [
          {
            name: 'x',
            inputSchema: props({ id: { type: 'number' }, to: { type: 'string' } }),
            annotations: read,
          },
        ],
      },
      findings: [
        {
          tool: 'x',
          severity: 'notice',
          message:
            'The input schema differs from the one the class list pins: properties.id.type, properties.to.',
        },
      ],
    },
    {
      name: 'a schema too large to keep: its digest still tells',
      case: {
        before: [
          {
            name: 'x',
            inputSchema: props({ a: { description: 'x'.repeat(5_000) } }),
            annotations: read,
          },
        ],
        after: [
          {
            name: 'x',
            inputSchema: props({ a: { description: 'y'.repeat(5_000) } }),
            annotations: read,
          },
        ],
      },
      findings: [
        {
          message:
            'The input schema differs from the one the class list pins (too large to keep in the class list: only its digest is compared).',
        },
      ],
    },
    {
      name: 'more than five paths: the rest counted',
      case: {
        before: [{ name: 'x', annotations: read }],
        after: [
          {
            name: 'x',
            inputSchema: { a: 1, b: 1, c: 1, d: 1, e: 1, f: 1, g: 1 },
            annotations: read,
          },
        ],
      },
      findings: [
        {
          message:
            'The input schema differs from the one the class list pins: a, b, c, d, e and 2 more.',
        },
      ],
    },
  ],
  passes: [
    {
      name: 'the same schema, its keys in another order',
      case: {
        before: [{ name: 'x', inputSchema: { type: 'object', properties: {} }, annotations: read }],
        after: [{ name: 'x', inputSchema: { properties: {}, type: 'object' }, annotations: read }],
      },
    },
    {
      name: 'only the description changed',
      case: {
        before: [{ name: 'x', description: 'a', annotations: read }],
        after: [{ name: 'x', description: 'b', annotations: read }],
      },
    },
  ],
});
