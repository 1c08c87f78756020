import { defineRule } from './rule.js';

export default defineRule({
  id: 'server-removed',
  severity: 'error',
  approvable: true,
  summary: 'the base class list records a server that no audited server matches',
  clears:
    'give the server back its name (`--server-name`, its config key), `update --prune` if it is gone, or the label',
});
