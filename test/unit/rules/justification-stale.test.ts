import { ruleTable } from '../../support/rule-table.js';
import { entry, facts } from '../../support/justification-facts.js';

ruleTable('justification-stale', {
  raises: [
    {
      name: 'the server flipped readOnlyHint, the file still declares the old value',
      case: facts([false, false, false], { entry: entry([true, false, false]) }),
      findings: [
        {
          tool: 'list_notes',
          server: 'notes',
          severity: 'error',
          hints: ['readOnlyHint'],
          message:
            'j.json declares readOnlyHint: true, the server false: the justification submitted to OpenAI is now false.',
          fix: 'Rewrite read_only_justification in j.json for the hint as the server declares it now, and set the hint there (justifications --write j.json sets it and marks the text to rewrite).',
        },
      ],
    },
    {
      name: "the PR set the file's hint to match but kept the base's justification",
      case: facts([false, false, false], {
        entry: entry([false, false, false]),
        base: entry([true, false, false]),
      }),
      findings: [
        {
          hints: ['readOnlyHint'],
          message:
            "readOnlyHint is false now, and read_only_justification is the base's, written for true: the justification submitted to OpenAI is now false.",
        },
      ],
    },
    {
      name: 'a hint the server no longer declares (null)',
      case: facts([true, null, false], { entry: entry([true, false, false]) }),
      findings: [{ hints: ['openWorldHint'] }],
    },
  ],
  passes: [
    {
      name: 'the file declares what the server does',
      case: facts([true, false, false], { entry: entry([true, false, false]) }),
    },
    {
      name: 'the PR flipped the hint and rewrote its justification',
      case: facts([false, false, false], {
        entry: entry([false, false, false], { read_only_justification: 'It writes a note now.' }),
        base: entry([true, false, false]),
      }),
    },
    { name: 'no entry (justification-missing)', case: facts([true, false, false]) },
  ],
});
