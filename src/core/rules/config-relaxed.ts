import { defineRule } from './rule.js';

export default defineRule({
  id: 'config-relaxed',
  severity: 'error',
  approvable: true,
  judgesConfig: true,
  summary:
    "the PR's config differs from the base commit's in any key but the few that cannot weaken the check (a rule raised, failOn stricter, a policy or server added, a waiver removed, limits, timeouts, concurrency, how a server starts)",
  clears:
    "restore the base commit's setting, or the label (the PR's own config cannot turn it down)",
});
