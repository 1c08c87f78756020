import { byRule, problemCase, toolCase } from '../../support/client-case.js';
import { ruleTable } from '../../support/rule-table.js';

const dropped = {
  kind: 'settings-ignored',
  file: '.fake/settings.json',
  line: 3,
  why: 'permissions.deny is not an array',
  fix: 'Fix that line.',
} as const;

ruleTable('settings-ignored', {
  raises: [
    {
      name: 'a file dropped whole while a recorded delete tool is not refused: an error',
      case: problemCase(dropped, true),
      findings: [
        {
          severity: 'error',
          message:
            'Fake CLI ignores .fake/settings.json entirely: permissions.deny is not an array (line 3), so none of its rules apply, deny and ask rules included; a recorded delete tool is not denied without it.',
          fix: 'Fix that line.',
          location: { file: '.fake/settings.json', line: 3 },
        },
      ],
    },
    {
      name: 'a file dropped whole with every delete tool refused anyway: a warning, the line said once',
      case: problemCase({ ...dropped, why: 'a JSON syntax error at line 3' }),
      findings: [
        {
          severity: 'warning',
          message:
            'Fake CLI ignores .fake/settings.json entirely: a JSON syntax error at line 3, so none of its rules apply, deny and ask rules included.',
        },
      ],
    },
  ],
  passes: [
    {
      name: 'a rule the client skips (rule-ignored)',
      case: problemCase({ kind: 'rule-ignored', rule: 'x', file: 'f', why: 'y', fix: 'z' }, true),
    },
    { name: 'a delete tool allowed', case: toolCase('d', 'delete', 'deny', byRule('allow')) },
  ],
});
