import { terminalSafe } from '../../escape.js';
import { defineRule } from './rule.js';

// An error, not approvable: deleting the file, or a live tool's entry, is how a PR that flips a
// hint would leave the submitted justification unchecked (justification-stale reads the file it
// finds). The file is PR code; the base commit's is what was reviewed.
export default defineRule({
  id: 'justification-removed',
  severity: 'error',
  approvable: false,
  summary:
    "openai policy: the PR deletes the base commit's hint justifications file, or the entry of a tool the server still lists",
  clears:
    'restore the file or the entry (`justifications --write FILE` adds it back from the class list), or a waiver; an entry of a tool that is gone may go',
  check: {
    phase: 'run',
    run: ({ justifications: facts }, raise) => {
      if (!facts) return [];
      const file = terminalSafe(facts.file, 200);
      const deletedAt = facts.absent?.deletedAt;
      if (deletedAt !== undefined)
        return [
          raise(
            undefined,
            `The hint justifications file ${file} is at ${terminalSafe(deletedAt, 100)} but not in this change: the justifications submitted to OpenAI would no longer be checked against the tools.`,
            {
              fix: `Restore ${file} as it is at ${terminalSafe(deletedAt, 100)} and update it (justifications --write ${file}); if the app is no longer submitted to OpenAI, remove the openai policy in the config instead.`,
            },
          ),
        ];
      return facts.tools.flatMap((t) =>
        t.base && !t.entry
          ? [
              raise(
                t.tool,
                `The hint justifications file ${file} has an entry for this tool${t.baseName !== undefined ? ` (as ${terminalSafe(t.baseName, 100)}, its name before this change)` : ''} at the base, and none in this change, while the server still lists the tool.`,
                {
                  fix: `Keep the tool's entry in ${file}: run justifications --write ${file} to add it back, and carry its justifications over.`,
                  server: t.server,
                },
              ),
            ]
          : [],
      );
    },
  },
});
