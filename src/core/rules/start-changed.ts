import { defineRule } from './rule.js';

export default defineRule({
  id: 'start-changed',
  severity: 'notice',
  approvable: false,
  summary:
    "the PR's config changes how a server is started (command, args, cwd, env, url, headers: named, never shown)",
  clears: 'nothing to clear (a notice): review how the server is now started',
});
