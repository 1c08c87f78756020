import { ruleTable } from '../../support/rule-table.js';

ruleTable('stale-waiver', {
  raises: [
    {
      name: 'a waiver no finding used',
      case: { run: { unusedWaivers: [{ tool: 'g', rule: 'tool-name', expired: false }] } },
      findings: [
        {
          tool: 'g',
          severity: 'warning',
          message: 'The waiver of tool-name for g matches no finding.',
          fix: 'Remove the waiver from the config file.',
        },
      ],
    },
    {
      name: 'a waiver past its expiry',
      case: {
        run: {
          unusedWaivers: [{ tool: 'g', rule: 'tool-name', expires: '2020-01-01', expired: true }],
        },
      },
      findings: [
        {
          tool: 'g',
          message: 'The waiver of tool-name for g expired on 2020-01-01.',
          fix: 'Fix the finding, or renew the waiver with a new expiry and reason.',
        },
      ],
    },
  ],
  passes: [
    { name: 'every waiver used', case: { run: { unusedWaivers: [] } } },
    {
      name: 'another fact of the run',
      case: { run: { noClassList: { classList: 'c.json', updateCommand: 'update' } } },
    },
  ],
});
