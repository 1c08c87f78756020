import { defineRule } from './rule.js';

export default defineRule({
  id: 'duplicate-tool',
  severity: 'error',
  approvable: false,
  summary: 'two tools with one name',
  clears: 'rename one of the two',
  check: {
    phase: 'listing',
    run: ({ tools }, raise) => {
      const seen = new Map<string, number>();
      for (const tool of tools) seen.set(tool.name, (seen.get(tool.name) ?? 0) + 1);
      return [...seen].flatMap(([name, count]) =>
        count > 1
          ? [
              raise(name, `${count} tools share this name; names must be unique within a server.`, {
                fix: 'Rename one of them.',
              }),
            ]
          : [],
      );
    },
  },
});
