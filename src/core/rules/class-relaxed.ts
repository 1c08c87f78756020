import { defineRule } from './rule.js';

export default defineRule({
  id: 'class-relaxed',
  severity: 'warning',
  // A delete tool relaxed is the change the check exists to stop: an error, not a warning.
  highest: 'error',
  approvable: true,
  summary:
    'delete to edit/read (error), or edit to read (warning): clients will auto-approve what they used to ask about',
  clears: 'the label or a waiver, once the new class is right; or restore the hints',
});
