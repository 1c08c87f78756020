import { ruleTable } from '../../support/rule-table.js';

ruleTable('start-removed', {
  raises: [
    {
      name: 'a tool gone from a server whose start changed',
      case: { run: { startRemoved: [{ tool: 'g', class: 'delete', reach: 'closed' }] } },
      findings: [
        {
          tool: 'g',
          severity: 'error',
          message:
            'Gone in a PR that changes how this server is started (see start-changed); it was delete (closed). The command clients run may still serve it.',
          fix: 'If the tool is really gone, a reviewer approves this with the approval label; otherwise restore how the server is started, or audit the command clients run.',
        },
      ],
    },
  ],
  passes: [{ name: 'no tool gone', case: { run: { startRemoved: [] } } }],
});
