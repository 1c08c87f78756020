import { ruleTable } from '../../support/rule-table.js';
import { entry, facts } from '../../support/justification-facts.js';

ruleTable('justification-removed', {
  raises: [
    {
      name: 'the base has the file, the PR deletes it (or names another path, not there)',
      case: facts([true, false, false], {}, { tools: [], absent: { deletedAt: 'main' } }),
      findings: [
        {
          severity: 'error',
          message:
            'The hint justifications file j.json is at main but not in this change: the justifications submitted to OpenAI would no longer be checked against the tools.',
          fix: 'Restore j.json as it is at main and update it (justifications --write j.json); if the app is no longer submitted to OpenAI, remove the openai policy in the config instead.',
        },
      ],
    },
    {
      name: "the PR drops the entry of a tool the server still lists, the base's file has it",
      case: facts([false, false, false], { base: entry([true, false, false]) }),
      findings: [
        {
          tool: 'list_notes',
          server: 'notes',
          severity: 'error',
          message:
            'The hint justifications file j.json has an entry for this tool at the base, and none in this change, while the server still lists the tool.',
          fix: "Keep the tool's entry in j.json: run justifications --write j.json to add it back, and carry its justifications over.",
        },
      ],
    },
    {
      name: 'the tool was renamed in the PR and its entry dropped',
      case: facts([true, false, false], { base: entry([true, false, false]), baseName: 'ls' }),
      findings: [
        {
          message:
            'The hint justifications file j.json has an entry for this tool (as ls, its name before this change) at the base, and none in this change, while the server still lists the tool.',
        },
      ],
    },
  ],
  passes: [
    {
      name: 'the entry is kept (its hints are justification-stale’s)',
      case: facts([false, false, false], {
        entry: entry([true, false, false]),
        base: entry([true, false, false]),
      }),
    },
    {
      name: 'a new tool, no entry at the base either (justification-missing)',
      case: facts([true, false, false]),
    },
    {
      name: 'the config names a file neither the base nor the PR has (justification-missing)',
      case: facts([true, false, false], {}, { tools: [], absent: {} }),
    },
    {
      name: 'the entry of a tool that is gone is removed: no live tool to report',
      case: facts([true, false, false], {}, { tools: [] }),
    },
    { name: 'no justifications file checked', case: { run: {} } },
  ],
});
