import { defineRule } from './rule.js';

/** The paths a message names; the comment and the JSON report hold the rest. */
const NAMED = 5;

// A notice by default, like description-changed: a new argument is routine, a reviewer decides.
export default defineRule({
  id: 'schema-changed',
  severity: 'notice',
  approvable: true,
  summary: 'the input schema differs from the pinned one',
  clears:
    'review the changed paths in the comment; `update` pins the new schema; raised above a notice, the label or a waiver',
  check: {
    phase: 'change',
    run: ({ change }, raise) => {
      const changed = change.inputSchemaChanged;
      if (!changed) return [];
      const paths = changed.paths;
      const where =
        paths === undefined
          ? ' (too large to keep in the class list: only its digest is compared)'
          : paths.length
            ? `: ${paths.slice(0, NAMED).join(', ')}${paths.length + (changed.more ?? 0) > NAMED ? ` and ${paths.length + (changed.more ?? 0) - NAMED} more` : ''}`
            : '';
      return [
        raise(change.tool, `The input schema differs from the one the class list pins${where}.`, {
          fix: 'Review what the changed arguments let the model send; if the tool still does what was reviewed, run update and commit the class list.',
        }),
      ];
    },
  },
});
