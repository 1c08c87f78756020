import { defineRule } from './rule.js';

// A notice by default: a description is rewritten often and for good reasons, and only a person
// can tell a clarification from new instructions; the comment shows both texts for that person.
// Approvable: a team that raises it to an error has a reviewer read the diff, which is what the
// label says happened.
export default defineRule({
  id: 'description-changed',
  severity: 'notice',
  approvable: true,
  summary: 'the description the model reads differs from the pinned one',
  clears:
    'read the old and new text in the comment; `update` pins the new one; raised above a notice, the label or a waiver',
  check: {
    phase: 'change',
    run: ({ change }, raise) =>
      change.descriptionChanged
        ? [
            raise(
              change.tool,
              'The description differs from the one the class list pins: the model reads new instructions for this tool.',
              {
                fix: 'Read the old and the new description side by side (the PR comment shows both); if the tool still does what was reviewed, run update and commit the class list.',
              },
            ),
          ]
        : [],
  },
});
