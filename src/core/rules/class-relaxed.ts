import { CLASS_RANK } from '../change.js';
import { defineRule } from './rule.js';

// A delete tool relaxed is the change the check exists to stop: an error, not a warning.
const HIGHEST = 'error';

export default defineRule({
  id: 'class-relaxed',
  severity: 'warning',
  highest: HIGHEST,
  approvable: true,
  summary:
    'delete to edit/read (error), or edit to read (warning), a tool removed beside a newcomer of a lower class included: clients will auto-approve what they used to ask about',
  clears: 'the label or a waiver, once the new class is right; or restore the hints',
  check: {
    phase: 'change',
    run: ({ change: { kind, tool, before, after, successor } }, raise) => {
      // A tool removed beside a newcomer of a lower class is judged as if renamed into it.
      const next = kind === 'removed' ? successor : after;
      if (!before || !next || CLASS_RANK[next.class] >= CLASS_RANK[before.class]) return [];
      const relaxed = raise(
        tool,
        `${next === successor ? `Removed while ${next.tool} (${next.class}) came in the same change: if it replaces this tool, the class relaxed` : 'Class relaxed'} from ${before.class} to ${next.class}: clients will auto-approve what they used to ask about.`,
        {
          fix: `${
            next.class === 'edit'
              ? 'Confirm the tool no longer deletes or overwrites anything: it may still change data, but only by adding or updating.'
              : 'Confirm the tool really no longer modifies or destroys anything.'
          } If so, the approval label (or a waiver with a reason) accepts the relaxed class.`,
        },
      );
      // A delete tool that clients stop asking about is what the check exists to stop: it fails
      // the run (a reviewer approves it with the label), where edit to read only warns.
      if (before.class === 'delete') relaxed.severity = HIGHEST;
      return [relaxed];
    },
  },
});
