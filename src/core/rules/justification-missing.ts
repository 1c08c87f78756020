import { terminalSafe } from '../../escape.js';
import { defineRule } from './rule.js';

// A warning: OpenAI's submission asks for every tool's three hints and their justifications, and
// a tool left out is asked about at review; but the server itself is not wrong.
export default defineRule({
  id: 'justification-missing',
  severity: 'warning',
  approvable: false,
  summary:
    'openai policy: a tool has no entry in the hint justifications file, or the file the config names is not there',
  clears:
    '`justifications --write FILE` adds the entry (its justifications for a person to write), or a waiver',
  check: {
    phase: 'run',
    run: ({ justifications: facts }, raise) => {
      if (!facts) return [];
      const file = terminalSafe(facts.file, 200);
      const fix = `Run justifications --write ${file}, write each justification it leaves as a placeholder, and commit the file.`;
      // A file or an entry the base commit has is justification-removed's.
      if (facts.absent)
        return facts.absent.deletedAt !== undefined
          ? []
          : [
              raise(
                undefined,
                `The config names the hint justifications file ${file}, but there is none.`,
                { fix },
              ),
            ];
      return facts.tools.flatMap((t) =>
        t.entry || t.base
          ? []
          : [
              raise(
                t.tool,
                `The hint justifications file ${file} has no entry for this tool: OpenAI's review asks why each of its hints holds.`,
                { fix, server: t.server },
              ),
            ],
      );
    },
  },
});
