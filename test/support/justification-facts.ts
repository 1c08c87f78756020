// Facts of the justification rules' table tests: one tool's hints now, and its entries.
import type { DeclaredHint, JustificationEntry } from '../../src/core/justifications.js';
import type { JustificationsFacts, RunContext } from '../../src/core/rules/rule.js';

type Hints = [readOnly: DeclaredHint, openWorld: DeclaredHint, destructive: DeclaredHint];

export const hints = ([readOnlyHint, openWorldHint, destructiveHint]: Hints) => ({
  readOnlyHint,
  openWorldHint,
  destructiveHint,
});

/** An entry declaring `declared`, each justification `text` (or the one given per key). */
export function entry(
  declared: Hints,
  text: string | Partial<JustificationEntry['justifications']> = 'Reads notes only.',
): JustificationEntry {
  const all = (t: string) => ({
    read_only_justification: t,
    open_world_justification: t,
    destructive_justification: t,
  });
  return {
    annotations: hints(declared),
    justifications: typeof text === 'string' ? all(text) : { ...all('Written.'), ...text },
  };
}

/** The run context of one live tool `list_notes` of server `notes`, with its entries. */
export function facts(
  live: Hints,
  given: {
    entry?: JustificationEntry;
    base?: JustificationEntry;
    baseName?: string;
    orphaned?: string[];
  } = {},
  more: Partial<JustificationsFacts> = {},
): { run: RunContext } {
  const tool = {
    tool: 'list_notes',
    server: 'notes',
    live: hints(live),
    ...(given.entry ? { entry: given.entry } : {}),
    ...(given.base ? { base: given.base } : {}),
    ...(given.baseName !== undefined ? { baseName: given.baseName } : {}),
  };
  return {
    run: {
      justifications: {
        file: 'j.json',
        tools: [tool],
        orphaned: given.orphaned ?? [],
        ...more,
      },
    },
  };
}
