import * as z from 'zod/v4';
import { lazily } from '../lazy.js';
import { REACHES, TITLE_SOURCES, TOOL_CLASSES } from './classify.js';
import { HINT_NAMES } from './tools.js';

/*
 * The zod schemas of the shapes more than one file reads: a tool's hints, its class and reach,
 * a hint as the class list records it. The class list and the JSON report both build on these,
 * so the two cannot drift apart. Built on first use (see lazily).
 */
export const shapes = lazily(() => {
  const hintState = z.strictObject({
    declared: z.boolean(),
    value: z.boolean().optional(),
    effective: z.boolean(),
  });
  const recordedHint = z.union([z.boolean(), z.literal('absent')]);
  return {
    toolClass: z.enum(TOOL_CLASSES),
    reach: z.enum(REACHES),
    titleSource: z.enum(TITLE_SOURCES),
    hintName: z.enum(HINT_NAMES),
    recordedHint,
    /** A listed tool's four hints, each declared or not. */
    hints: z.strictObject({
      readOnlyHint: hintState,
      destructiveHint: hintState,
      idempotentHint: hintState,
      openWorldHint: hintState,
    }),
    /** The four hints as the class list records them. */
    recordedHints: z.strictObject({
      readOnlyHint: recordedHint,
      destructiveHint: recordedHint,
      idempotentHint: recordedHint,
      openWorldHint: recordedHint,
    }),
  };
});
