import { ruleTable } from '../../support/rule-table.js';
import { entry, facts } from '../../support/justification-facts.js';

ruleTable('justification-orphaned', {
  raises: [
    {
      name: 'an entry of a tool no server lists',
      case: facts([true, false, false], {
        entry: entry([true, false, false]),
        orphaned: ['old_tool'],
      }),
      findings: [
        {
          tool: 'old_tool',
          severity: 'notice',
          message:
            'The hint justifications file j.json has an entry for this tool, which no audited server lists.',
        },
      ],
    },
  ],
  passes: [
    {
      name: 'every entry a live tool',
      case: facts([true, false, false], { entry: entry([true, false, false]) }),
    },
  ],
});
