import { ruleTable } from '../../support/rule-table.js';

ruleTable('class-list-moved', {
  raises: [
    {
      name: "the PR's class list at another path than the base's",
      case: { run: { movedClassList: { head: 'new.json', base: 'old.json', label: 'main' } } },
      findings: [
        {
          message: 'The class list is new.json now, but old.json at main: the two are compared.',
        },
      ],
    },
  ],
  passes: [{ name: 'the class list where it was', case: { run: {} } }],
});
