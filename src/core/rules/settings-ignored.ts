import { defineRule } from './rule.js';

export default defineRule({
  id: 'settings-ignored',
  severity: 'error',
  approvable: false,
  summary:
    'a Claude Code settings file the client drops whole (not JSON, or a known key of the wrong type), deny rules included; a warning when no recorded delete tool depends on it',
  clears:
    'fix the file so it parses and every known key has its type (the finding names the place)',
});
