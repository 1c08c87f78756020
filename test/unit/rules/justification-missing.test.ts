import { ruleTable } from '../../support/rule-table.js';
import { entry, facts } from '../../support/justification-facts.js';

const fix =
  'Run justifications --write j.json, write each justification it leaves as a placeholder, and commit the file.';

ruleTable('justification-missing', {
  raises: [
    {
      name: 'a live tool without an entry',
      case: facts([true, false, false]),
      findings: [
        {
          tool: 'list_notes',
          server: 'notes',
          severity: 'warning',
          message:
            "The hint justifications file j.json has no entry for this tool: OpenAI's review asks why each of its hints holds.",
          fix,
        },
      ],
    },
    {
      name: 'the config names a file that is not there',
      case: facts([true, false, false], {}, { tools: [], absent: {} }),
      findings: [
        { message: 'The config names the hint justifications file j.json, but there is none.' },
      ],
    },
  ],
  passes: [
    {
      name: 'the tool has its entry',
      case: facts([true, false, false], { entry: entry([true, false, false]) }),
    },
    { name: 'no justifications file checked', case: { run: {} } },
    {
      name: 'the base has the file, the PR deletes it (justification-removed)',
      case: facts([true, false, false], {}, { tools: [], absent: { deletedAt: 'main' } }),
    },
    {
      name: 'the base has the entry, the PR drops it (justification-removed)',
      case: facts([true, false, false], { base: entry([true, false, false]) }),
    },
  ],
});
