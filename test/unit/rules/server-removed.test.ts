import { ruleTable } from '../../support/rule-table.js';

ruleTable('server-removed', {
  raises: [
    {
      name: 'a base server no audited server matches, of a run of one server',
      case: {
        run: { removedServers: { servers: [{ server: 'old', tools: ['a', 'b'] }], single: true } },
      },
      findings: [
        {
          message:
            'The base class list records 2 reviewed tools of server "old" (a, b), but no audited server matches it by name or by its tools: this change removes them from review.',
          fix: 'If the server was renamed, give it back its name (--server-name, the server-name input) so its tools are compared one by one; if it is removed on purpose, approve with the approval label.',
        },
      ],
    },
    {
      name: 'one of six tools, of a run of several servers',
      case: {
        run: {
          removedServers: {
            servers: [{ server: 'old', tools: ['a', 'b', 'c', 'd', 'e', 'f'] }],
            single: false,
          },
        },
      },
      findings: [
        {
          message:
            'The base class list records 6 reviewed tools of server "old" (a, b, c, d, e, …), but no audited server matches it by name or by its tools: this change removes them from review.',
          fix: 'If the server was renamed, give it back its name (its key in the config file) so its tools are compared one by one; if it is removed on purpose, approve with the approval label.',
        },
      ],
    },
  ],
  passes: [
    {
      name: 'every base server matched',
      case: { run: { removedServers: { servers: [], single: true } } },
    },
  ],
});
