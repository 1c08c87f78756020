import { defineRule } from './rule.js';

export default defineRule({
  id: 'tool-renamed',
  severity: 'notice',
  approvable: false,
  summary:
    'same input schema under a new name; a probable rename (a removed and an added tool whose declared hints were dropped or whose class relaxed); or a tool moved from one server to another (same name, same schema, or probable); a reason is carried over only for a same-schema rename within one server whose class did not rise',
  clears: 'nothing to clear (a notice): `update` records it; review its class',
});
