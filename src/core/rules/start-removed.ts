import { defineRule } from './rule.js';

export default defineRule({
  id: 'start-removed',
  severity: 'error',
  approvable: true,
  summary:
    "a tool of the base class list is gone from a server whose start configuration the PR's config changed: the command clients run may still serve it",
  clears:
    'the label, once the tool is really gone from what clients run; or restore the start configuration or the tool',
});
