import { defineRule } from './rule.js';

/** The spec's tool-name rules: 1-128 characters of A-Z a-z 0-9 _ - . */
const NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;

export default defineRule({
  id: 'tool-name',
  severity: 'error',
  approvable: false,
  summary: "breaks the spec's tool-name rules",
  clears: 'rename the tool',
  check: {
    phase: 'tool',
    run: ({ tool }, raise) => {
      if (NAME_PATTERN.test(tool.name)) return [];
      const why =
        tool.name.length > 128
          ? `it has ${tool.name.length} characters (at most 128)`
          : 'it may only use A-Z, a-z, 0-9, _, - and .';
      return [raise(tool.name, `The tool name breaks the spec's rules: ${why}.`)];
    },
  },
});
