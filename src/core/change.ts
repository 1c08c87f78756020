// A tool's change between two states of the tool surface, and the words the findings about it
// share (its class, whether its reviewed reason carries over). A leaf: the rules' checks
// (core/rules/) and the diff both read it.
import type { Reach, TitleSource, ToolClass } from './classify.js';
import type { RecordedHint, ToolRecord } from './classlist.js';
import { hintText } from './text.js';
import { HINT_NAMES, type HintName } from './tools.js';
import type { DescriptionChange, SchemaChange } from './pins.js';

export interface HintMove {
  hint: HintName;
  before: RecordedHint;
  after: RecordedHint;
}

/** How one tool differs between two states of the tool surface. */
export interface ToolChange {
  kind: 'added' | 'removed' | 'renamed' | 'changed';
  /** Full name after the change (before, for a removed tool). */
  name: string;
  tool: string;
  /** Full name before a rename. */
  renamedFrom?: string;
  /**
   * A rename guessed from hints, not proven by the schema: see {@link probableRenames}. Its
   * reason is never carried over.
   */
  probable?: boolean;
  before?: ToolRecord;
  after?: ToolRecord;
  hints: HintMove[];
  titleChanged: boolean;
  /** The input schema differs: set only when asked for (drift), see {@link diffRecords}. */
  schemaChanged?: boolean;
  /** The pinned description differs (both sides pinned): the old and the new text. */
  descriptionChanged?: DescriptionChange;
  /** The pinned input schema differs (both sides pinned): the paths that changed. */
  inputSchemaChanged?: SchemaChange;
  /**
   * A removed tool's possible successor: a tool that came in the same change (added, renamed,
   * moved, or kept with a new input schema) and would relax it (see markSuccessors).
   */
  successor?: ToolRecord;
}

/** Classes by risk: a move up the ranks is an escalation. */
export const CLASS_RANK: Record<ToolClass, number> = { read: 0, edit: 1, delete: 2 };

/** A class and reach as the findings write them: `delete (open)`. */
export function classWord(c: ToolClass, r: Reach): string {
  return `${c} (${r})`;
}

/**
 * Whether a rename carries the reviewed reason over: only when the class did not rise. A reason
 * written for a read tool says nothing about a delete tool that took its schema (every tool
 * without arguments shares one), so that one needs a new review.
 */
export function carriesReason(change: ToolChange): boolean {
  const { before, after } = change;
  return (
    change.kind === 'renamed' &&
    change.probable !== true &&
    movedFrom(change) === undefined &&
    before?.reason !== undefined &&
    after !== undefined &&
    CLASS_RANK[after.class] <= CLASS_RANK[before.class]
  );
}

/** What a rename does with the reviewed reason, for the findings that report it. */
export function reasonNote(change: ToolChange, carried: string): string {
  const { before, after } = change;
  if (before?.reason === undefined || !after) return '';
  if (change.probable)
    return '; its reason is not carried over to a probable rename: review the tool and give it a reason';
  // Update writes each server's entries from its own: a reason never follows a tool elsewhere.
  if (movedFrom(change) !== undefined)
    return '; its reason is not carried over to another server: review the tool and give it a reason';
  return carriesReason(change)
    ? `; ${carried}`
    : `; its reason is not carried over because the class rose from ${before.class} to ${after.class}: review the tool and give it a new reason`;
}

/**
 * The server a rename's tool came from when it is another server's (a tool moved between
 * servers, see pairMoves); `undefined` for any other change.
 */
export function movedFrom(change: ToolChange): string | undefined {
  const { before, after } = change;
  return change.kind === 'renamed' && before && after && before.server !== after.server
    ? before.server
    : undefined;
}

/** The hints whose recorded value differs between two records of one tool. */
export function hintMoves(before: ToolRecord, after: ToolRecord): HintMove[] {
  const moves: HintMove[] = [];
  for (const hint of HINT_NAMES)
    if (before.hints[hint] !== after.hints[hint])
      moves.push({ hint, before: before.hints[hint], after: after.hints[hint] });
  return moves;
}

/**
 * A change of the input schema alone: drift to record (the hash is what recognises a rename),
 * but no change of the tool surface a PR comment is about.
 */
export function isSchemaOnly(change: ToolChange): boolean {
  return (
    change.schemaChanged === true && !change.descriptionChanged && isDescriptionOrSchemaOnly(change)
  );
}

/**
 * Whether a change leaves the class surface as it was (hints, class, reach and title): only what
 * the model reads changed, the description or the input schema.
 */
export function isDescriptionOrSchemaOnly(change: ToolChange): boolean {
  return (
    change.kind === 'changed' &&
    !change.hints.length &&
    !change.titleChanged &&
    change.before?.class === change.after?.class &&
    change.before?.reach === change.after?.reach
  );
}

/** Hint moves as the findings write them: `readOnlyHint true -> absent`. */
export function describeMoves(moves: HintMove[]): string {
  return moves.map((m) => `${m.hint} ${hintText(m.before)} -> ${hintText(m.after)}`).join(', ');
}

const TITLE_PLACES: Record<TitleSource, string> = {
  tool: 'Tool.title',
  annotations: 'annotations.title',
  none: 'the tool name',
};

type Titled = { title: string; titleSource: TitleSource };

/** How a title changed: its text, where it is set, or both (same text moved is still a move). */
export function describeTitleMove(before: Titled, after: Titled): string {
  const [from, to] = [TITLE_PLACES[before.titleSource], TITLE_PLACES[after.titleSource]];
  if (before.title === after.title)
    return `title ${JSON.stringify(after.title)} moved from ${from} to ${to}`;
  if (before.titleSource === after.titleSource)
    return `title ${JSON.stringify(before.title)} -> ${JSON.stringify(after.title)}`;
  return `title ${JSON.stringify(before.title)} (${from}) -> ${JSON.stringify(after.title)} (${to})`;
}
