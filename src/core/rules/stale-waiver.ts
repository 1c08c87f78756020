import { defineRule } from './rule.js';

export default defineRule({
  id: 'stale-waiver',
  severity: 'warning',
  approvable: false,
  summary: 'a waiver that no longer matches anything, or has expired',
  clears: 'remove or renew the waiver',
  check: {
    phase: 'run',
    run: ({ unusedWaivers = [] }, raise) =>
      unusedWaivers.map((waiver) =>
        raise(
          waiver.tool,
          waiver.expired
            ? `The waiver of ${waiver.rule} for ${waiver.tool} expired on ${waiver.expires}.`
            : `The waiver of ${waiver.rule} for ${waiver.tool} matches no finding.`,
          {
            fix: waiver.expired
              ? 'Fix the finding, or renew the waiver with a new expiry and reason.'
              : 'Remove the waiver from the config file.',
          },
        ),
      ),
  },
});
