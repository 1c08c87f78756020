import { terminalSafe } from '../../escape.js';
import { defineRule } from './rule.js';

export default defineRule({
  id: 'start-changed',
  severity: 'notice',
  approvable: false,
  summary:
    "the PR's config changes how a server is started (command, args, cwd, env, url, headers: named, never shown)",
  clears: 'nothing to clear (a notice): review how the server is now started',
  check: {
    phase: 'run',
    run: ({ config }, raise) =>
      (config?.starts ?? []).map(({ server, changed }) =>
        raise(
          undefined,
          terminalSafe(
            `The config ${config?.head} changes how this server is started against ${config?.base} (${changed.join(', ')}): a tool it no longer lists is start-removed, an error, since the command clients run may still serve it.`,
            600,
          ),
          { server },
        ),
      ),
  },
});
