import { ruleTable } from '../../support/rule-table.js';

const config = { base: 'a.json at main', head: 'a.json', starts: [] };

ruleTable('config-relaxed', {
  raises: [
    {
      name: "a relaxation, at the base's severity",
      case: {
        run: {
          config: {
            ...config,
            relaxations: ['failOn is never, was error'],
            relaxedSeverity: 'warning',
          },
        },
      },
      findings: [
        {
          severity: 'warning',
          message:
            'The config a.json relaxes the check against a.json at main: failOn is never, was error.',
          fix: 'If the relaxation is intended, a reviewer approves it with the approval label; otherwise restore the setting.',
        },
      ],
    },
  ],
  passes: [
    {
      name: "the base's config turns it off",
      case: { run: { config: { ...config, relaxations: ['x'], relaxedSeverity: 'off' } } },
    },
    {
      name: 'nothing relaxed',
      case: { run: { config: { ...config, relaxations: [], relaxedSeverity: 'error' } } },
    },
    { name: 'no config compared', case: { run: {} } },
  ],
});
