import { problemLocation } from '../client-words.js';
import { defineRule } from './rule.js';

export default defineRule({
  id: 'settings-ignored',
  severity: 'error',
  approvable: false,
  summary:
    'a Claude Code settings file the client drops whole (not JSON, or a known key of the wrong type), deny rules included; a warning when no recorded delete tool depends on it',
  clears:
    'fix the file so it parses and every known key has its type (the finding names the place)',
  check: {
    phase: 'client',
    // An error while a recorded delete tool is not refused: the file may be what refused it.
    run: ({ client, problem, deleteExposed }, raise) => {
      if (problem?.kind !== 'settings-ignored') return [];
      const at = problem.why.includes(' at line ') ? '' : ` (line ${problem.line ?? 1})`;
      const found = raise(
        undefined,
        `${client.label} ignores ${problem.file} entirely: ${problem.why}${at}, so none of its rules apply, deny and ask rules included${deleteExposed ? '; a recorded delete tool is not denied without it' : ''}.`,
        { fix: problem.fix, ...problemLocation(problem) },
      );
      if (!deleteExposed) found.severity = 'warning';
      return [found];
    },
  },
});
