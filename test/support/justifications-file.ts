// A tool-hint-justifications.json of the notes server (test/fixtures/servers/notes-spec.json),
// as a person would have written it: every justification filled in.
import { JUSTIFICATIONS_SCHEMA } from '../../src/core/justifications.js';

type Hints = [readOnly: boolean | null, openWorld: boolean | null, destructive: boolean | null];

export const NOTES_HINTS: Record<string, Hints> = {
  add_note: [false, false, false],
  delete_note: [false, false, true],
  list_notes: [true, false, false],
};

export const JUSTIFICATIONS = 'tool-hint-justifications.json';

/** The file declaring `hints` per tool (the notes server's by default), each justified in words. */
export function justificationsText(
  hints: Record<string, Hints> = NOTES_HINTS,
  text: (tool: string, key: string) => string = (tool, key) =>
    `${tool}: ${key} written by a person.`,
): string {
  const tools = Object.fromEntries(
    Object.entries(hints).map(([tool, [readOnlyHint, openWorldHint, destructiveHint]]) => [
      tool,
      {
        annotations: { readOnlyHint, openWorldHint, destructiveHint },
        justifications: {
          read_only_justification: text(tool, 'read_only_justification'),
          open_world_justification: text(tool, 'open_world_justification'),
          destructive_justification: text(tool, 'destructive_justification'),
        },
      },
    ]),
  );
  return `${JSON.stringify({ $schema: JUSTIFICATIONS_SCHEMA, schema_version: 1, tools }, null, 2)}\n`;
}
