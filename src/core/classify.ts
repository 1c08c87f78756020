import { canonicalJson, sha256Hex } from './digest.js';
import { pinOf, schemaText, type Pin } from './pins.js';
import { HINT_DEFAULTS, type HintName, type ListedTool } from './tools.js';

/** The classes, least risky first: what a client may do with a tool. */
export const TOOL_CLASSES = ['read', 'edit', 'delete'] as const;
export type ToolClass = (typeof TOOL_CLASSES)[number];
export const REACHES = ['open', 'closed'] as const;
export type Reach = (typeof REACHES)[number];
/** Where a tool's title comes from: Tool.title, annotations.title, or none (the name stands in). */
export const TITLE_SOURCES = ['tool', 'annotations', 'none'] as const;
export type TitleSource = (typeof TITLE_SOURCES)[number];

/** One hint in its three states: declared true, declared false, or absent (default applies). */
export interface HintState {
  declared: boolean;
  /** The declared value; absent when the server did not declare the hint. */
  value?: boolean;
  /** What a client acts on: the declared value or the spec's default. */
  effective: boolean;
}

export interface ClassifiedTool {
  name: string;
  title: string;
  titleSource: TitleSource;
  /** `annotations.title` when the server sent it, for the claude profile's title-location check. */
  annotationsTitle?: string;
  description?: string;
  class: ToolClass;
  reach: Reach;
  hints: Record<HintName, HintState>;
  /** Short hash of the input schema: a removed and an added tool with the same one is a rename. */
  schemaHash: string;
  /** Its description and input schema as the class list pins them (see core/pins.ts). */
  pin?: Pin;
}

/** Reads one hint without confusing declared-false with absent. */
export function readHint(tool: ListedTool, hint: HintName): HintState {
  const value = tool.annotations?.[hint];
  return value === undefined
    ? { declared: false, effective: HINT_DEFAULTS[hint] }
    : { declared: true, value, effective: value };
}

/**
 * The class from the two deciding hints: read when readOnlyHint is true; edit only when the tool
 * writes and destructiveHint is declared false; delete for everything else, no hints included.
 */
export function classOf(hints: Record<HintName, HintState>): ToolClass {
  if (hints.readOnlyHint.effective) return 'read';
  if (hints.destructiveHint.declared && hints.destructiveHint.value === false) return 'edit';
  return 'delete';
}

/** Title precedence from the spec: `Tool.title`, then `annotations.title`, then the name. */
export function titleOf(tool: ListedTool): { title: string; titleSource: TitleSource } {
  // A blank title is no title, as the policies see it.
  if (tool.title !== undefined && tool.title.trim().length > 0)
    return { title: tool.title, titleSource: 'tool' };
  const fromAnnotations = tool.annotations?.title;
  if (fromAnnotations !== undefined && fromAnnotations.trim().length > 0)
    return { title: fromAnnotations, titleSource: 'annotations' };
  return { title: tool.name, titleSource: 'none' };
}

// canonicalJson moved to core/digest.ts (a leaf core/pins.ts reads too); still reached here.
export { canonicalJson } from './digest.js';

/** How many hex digits of the schema's sha256 the short hash keeps. */
const SCHEMA_HASH_LENGTH = 16;

/** The short hash of an input schema (or of its canonical text) that recognises a rename. */
export function hashSchema(schema: unknown, text = canonicalJson(schema ?? {})): string {
  return sha256Hex(text).slice(0, SCHEMA_HASH_LENGTH);
}

/** Classifies one validated tool: hints with their states, class, reach and title. */
export function classifyTool(tool: ListedTool): ClassifiedTool {
  const hints: Record<HintName, HintState> = {
    readOnlyHint: readHint(tool, 'readOnlyHint'),
    destructiveHint: readHint(tool, 'destructiveHint'),
    idempotentHint: readHint(tool, 'idempotentHint'),
    openWorldHint: readHint(tool, 'openWorldHint'),
  };
  // One digest of the schema's canonical text: the short hash is the start of the pin's.
  const pin = pinOf(tool.description, tool.descriptionDigest, schemaText(tool.inputSchema));
  const classified: ClassifiedTool = {
    name: tool.name,
    ...titleOf(tool),
    class: classOf(hints),
    reach: hints.openWorldHint.effective ? 'open' : 'closed',
    hints,
    schemaHash: pin.inputSchemaDigest.slice(0, SCHEMA_HASH_LENGTH),
    pin,
  };
  if (tool.annotations?.title !== undefined) classified.annotationsTitle = tool.annotations.title;
  if (tool.description !== undefined) classified.description = tool.description;
  return classified;
}

/** The hints of `hints` the tool does not declare. */
export function undeclaredHints(tool: ClassifiedTool, hints: readonly HintName[]): HintName[] {
  return hints.filter((h) => !tool.hints[h].declared);
}

/** A title of only spaces shows nothing, so it counts as no title wherever it is written. */
function isBlank(title: string | undefined): boolean {
  return title === undefined || title.trim() === '';
}

/**
 * Where the tool has a title a person can read: `Tool.title` (the title shown when its source is
 * "tool") and `annotations.title`, each blank when empty or only spaces.
 */
export function titlesOf(tool: ClassifiedTool): { inTool: boolean; inAnnotations: boolean } {
  return {
    inTool: tool.titleSource === 'tool' && !isBlank(tool.title),
    inAnnotations: !isBlank(tool.annotationsTitle),
  };
}

/** Whether the tool has a title a person can read, in either place. */
export function hasTitle(tool: ClassifiedTool): boolean {
  const { inTool, inAnnotations } = titlesOf(tool);
  return inTool || inAnnotations;
}
