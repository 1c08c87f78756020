import { ruleTable } from '../../support/rule-table.js';

ruleTable('tool-name', {
  raises: [
    {
      name: 'a space in the name',
      case: { tool: { name: 'list notes' } },
      findings: [
        {
          tool: 'list notes',
          severity: 'error',
          message:
            "The tool name breaks the spec's rules: it may only use A-Z, a-z, 0-9, _, - and ..",
        },
      ],
    },
    {
      name: 'a name over 128 characters',
      case: { tool: { name: 'n'.repeat(129) } },
      findings: [
        { message: "The tool name breaks the spec's rules: it has 129 characters (at most 128)." },
      ],
    },
  ],
  passes: [
    { name: 'letters, digits, _, - and .', case: { tool: { name: 'notes.list_v2-beta' } } },
    { name: 'exactly 128 characters', case: { tool: { name: 'n'.repeat(128) } } },
  ],
});
