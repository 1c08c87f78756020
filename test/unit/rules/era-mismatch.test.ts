import { ruleTable } from '../../support/rule-table.js';

ruleTable('era-mismatch', {
  raises: [
    {
      name: 'a hint that differs between the eras',
      case: {
        legacy: [{ name: 'x', annotations: { readOnlyHint: true } }],
        modern: [{ name: 'x', annotations: { readOnlyHint: false } }],
      },
      findings: [
        {
          tool: 'x',
          severity: 'warning',
          message:
            'Annotations differ between eras (legacy -> modern): readOnlyHint true -> false.',
          hints: ['readOnlyHint'],
        },
      ],
    },
    {
      name: 'a tool only one era lists',
      case: { legacy: [{ name: 'a' }], modern: [{ name: 'b' }] },
      findings: [
        { tool: 'a', message: 'Listed in the legacy era but not in the modern era.' },
        { tool: 'b', message: 'Listed in the modern era but not in the legacy era.' },
      ],
    },
    {
      name: 'a title moved between the eras',
      case: {
        legacy: [{ name: 'x', annotations: { title: 'X' } }],
        modern: [{ name: 'x', title: 'X' }],
      },
      findings: [
        {
          message:
            'Annotations differ between eras (legacy -> modern): title "X" moved from annotations.title to Tool.title.',
          hints: [],
        },
      ],
    },
  ],
  passes: [
    {
      name: 'the same annotations in both eras',
      case: {
        legacy: [{ name: 'x', annotations: { readOnlyHint: true } }],
        modern: [{ name: 'x', annotations: { readOnlyHint: true } }],
      },
    },
    {
      name: 'a tool one era lists and the other lists malformed (malformed-tool says so)',
      case: { legacy: [{ name: 'x' }], modern: [], malformed: ['x'] },
    },
  ],
});
