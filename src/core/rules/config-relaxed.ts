import { terminalSafe } from '../../escape.js';
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
  check: {
    phase: 'run',
    run: ({ config }, raise) => {
      if (!config || config.relaxedSeverity === 'off') return [];
      const severity = config.relaxedSeverity;
      return config.relaxations.map((what) => ({
        ...raise(
          undefined,
          terminalSafe(
            `The config ${config.head} relaxes the check against ${config.base}: ${what}.`,
            600,
          ),
          {
            fix: 'If the relaxation is intended, a reviewer approves it with the approval label; otherwise restore the setting.',
          },
        ),
        // The base's config sets it: the config it judges cannot turn it down.
        severity,
      }));
    },
  },
});
