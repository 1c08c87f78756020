import { defineRule } from './rule.js';

export default defineRule({
  id: 'server-removed',
  severity: 'error',
  approvable: true,
  summary: 'the base class list records a server that no audited server matches',
  clears:
    'give the server back its name (`--server-name`, its config key), `update --prune` if it is gone, or the label',
  check: {
    phase: 'run',
    run: ({ removedServers: removed }, raise) =>
      (removed?.servers ?? []).map(({ server, tools }) =>
        raise(
          undefined,
          `The base class list records ${tools.length} reviewed tool${tools.length === 1 ? '' : 's'} of server "${server}" (${tools.slice(0, 5).join(', ')}${tools.length > 5 ? ', …' : ''}), but no audited server matches it by name or by its tools: this change removes them from review.`,
          {
            fix: `If the server was renamed, give it back its name (${removed?.single ? '--server-name, the server-name input' : 'its key in the config file'}) so its tools are compared one by one; if it is removed on purpose, approve with the approval label.`,
          },
        ),
      ),
  },
});
