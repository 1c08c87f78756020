import { problemCheck } from '../client-words.js';
import { defineRule } from './rule.js';

export default defineRule({
  id: 'rule-ignored',
  severity: 'warning',
  approvable: false,
  summary:
    'a client rule or setting the client skips (Claude Code: an allow glob outside the tool part, parentheses, whitespace, a repo-controlled bypassPermissions, allow rules of a tracked settings.local.json; VS Code: a workspace chat.tools.global.autoApprove, which only a user’s own settings set)',
  clears: 'rewrite the rule or setting as the finding suggests',
  check: { phase: 'client', run: problemCheck('rule-ignored', 'is ignored:') },
});
