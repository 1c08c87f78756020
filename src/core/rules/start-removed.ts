import { classWord } from '../change.js';
import { defineRule } from './rule.js';

export default defineRule({
  id: 'start-removed',
  severity: 'error',
  approvable: true,
  summary:
    "a tool of the base class list is gone from a server whose start configuration the PR's config changed: the command clients run may still serve it",
  clears:
    'the label, once the tool is really gone from what clients run; or restore the start configuration or the tool',
  check: {
    phase: 'run',
    run: ({ startRemoved = [] }, raise) =>
      startRemoved.map((gone) =>
        raise(
          gone.tool,
          `Gone in a PR that changes how this server is started (see start-changed); it was ${classWord(gone.class, gone.reach)}. The command clients run may still serve it.`,
          {
            fix: 'If the tool is really gone, a reviewer approves this with the approval label; otherwise restore how the server is started, or audit the command clients run.',
          },
        ),
      ),
  },
});
