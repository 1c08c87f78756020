import { terminalSafe } from '../../escape.js';
import { defineRule } from './rule.js';

export default defineRule({
  id: 'justification-orphaned',
  severity: 'notice',
  approvable: false,
  summary: 'openai policy: the hint justifications file has an entry for a tool that is gone',
  clears: "remove the entry from the file (the auditor keeps it: it holds a person's text)",
  check: {
    phase: 'run',
    run: ({ justifications: facts }, raise) =>
      (facts?.orphaned ?? []).map((tool) =>
        raise(
          tool,
          `The hint justifications file ${terminalSafe(facts?.file ?? '', 200)} has an entry for this tool, which no audited server lists.`,
          { fix: 'If the tool is gone for good, remove its entry from the file.' },
        ),
      ),
  },
});
