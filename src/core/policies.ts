import type { ClassifiedTool } from './classify.js';
import { finding, type Finding } from './findings.js';
import type { Policy } from '../config/defaults.js';
import { HINT_NAMES, type HintName, type MalformedTool } from './tools.js';

export const DEFAULT_POLICIES: Policy[] = ['claude', 'openai'];

/** The spec's tool-name rules: 1-128 characters of A-Z a-z 0-9 _ - . */
const NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;
const CLAUDE_NAME_LIMIT = 64;

function undeclared(tool: ClassifiedTool, hints: readonly HintName[]): HintName[] {
  return hints.filter((h) => !tool.hints[h].declared);
}

/** "a", "a and b", "a, b and c". */
export function list(items: string[]): string {
  return items.length <= 1
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** What fixes a Claude finding: annotations to declare, a name to shorten, or both. */
function claudeFix(annotations: boolean, tooLong: boolean): string {
  const limit = `at most ${CLAUDE_NAME_LIMIT} characters`;
  if (!annotations) return `Shorten the tool name to ${limit}.`;
  return `Declare the missing annotations on the tool${tooLong ? `, and shorten its name to ${limit}` : ''}.`;
}

/** A title of only spaces shows nothing, so it counts as no title wherever it is written. */
function isBlank(title: string | undefined): boolean {
  return title === undefined || title.trim() === '';
}

/**
 * Where the tool has a title a person can read: `Tool.title` (the title shown when its source is
 * "tool") and `annotations.title`, each blank when empty or only spaces.
 */
function titlesOf(tool: ClassifiedTool): { inTool: boolean; inAnnotations: boolean } {
  return {
    inTool: tool.titleSource === 'tool' && !isBlank(tool.title),
    inAnnotations: !isBlank(tool.annotationsTitle),
  };
}

function hasTitle(tool: ClassifiedTool): boolean {
  const { inTool, inAnnotations } = titlesOf(tool);
  return inTool || inAnnotations;
}

function checkClaude(tool: ClassifiedTool): Finding[] {
  const missing: string[] = [];
  if (!hasTitle(tool)) missing.push('a title (annotations.title)');
  // Either hint would do: both are named, so a dropped one shows as required (core/advice.ts).
  const hints = undeclared(tool, ['readOnlyHint', 'destructiveHint']);
  if (hints.length === 2) missing.push('readOnlyHint or destructiveHint');
  const annotations = missing.length > 0;
  const tooLong = tool.name.length > CLAUDE_NAME_LIMIT;
  if (tooLong)
    missing.push(`a name of at most ${CLAUDE_NAME_LIMIT} characters (it has ${tool.name.length})`);
  const out: Finding[] = [];
  if (missing.length)
    out.push(
      finding(
        'policy-claude',
        tool.name,
        `The Claude connector directory requires ${list(missing)}.`,
        { fix: claudeFix(annotations, tooLong), ...(hints.length === 2 ? { hints } : {}) },
      ),
    );
  const titles = titlesOf(tool);
  if (titles.inTool && !titles.inAnnotations)
    out.push(
      finding(
        'title-location',
        tool.name,
        `The title is only in Tool.title${tool.annotationsTitle !== undefined ? ' (annotations.title is blank)' : ''}; the Claude directory's checklist reads annotations.title.`,
        { fix: 'Also set annotations.title.' },
      ),
    );
  return out;
}

function checkOpenAi(tool: ClassifiedTool): Finding[] {
  const missing = undeclared(tool, ['readOnlyHint', 'destructiveHint', 'openWorldHint']);
  if (!missing.length) return [];
  return [
    finding(
      'policy-openai',
      tool.name,
      `The OpenAI Apps SDK requires readOnlyHint, destructiveHint and openWorldHint; ${list(missing)} ${missing.length > 1 ? 'are' : 'is'} not declared.`,
      { hints: missing, fix: 'Declare each hint, even where it equals the default.' },
    ),
  ];
}

function checkExplicit(tool: ClassifiedTool): Finding[] {
  const hints = undeclared(tool, HINT_NAMES);
  const missing: string[] = [...hints];
  if (!hasTitle(tool)) missing.unshift('title');
  if (!missing.length) return [];
  return [
    finding(
      'policy-explicit',
      tool.name,
      `The explicit profile requires ${list(missing)} to be declared.`,
      {
        fix: 'Declare a title and all four hints, even where they equal the default.',
        ...(hints.length ? { hints } : {}),
      },
    ),
  ];
}

const CHECKS: Record<Policy, (tool: ClassifiedTool) => Finding[]> = {
  claude: checkClaude,
  openai: checkOpenAi,
  explicit: checkExplicit,
};

/** Rules that hold whatever profiles are enabled: names, uniqueness, and one consistency lint. */
export function checkAlwaysOn(tools: ClassifiedTool[], malformed: MalformedTool[]): Finding[] {
  const out: Finding[] = malformed.map((m) =>
    finding('malformed-tool', m.label, `The tool fails validation: ${m.problems.join('; ')}.`, {
      fix: 'Fix the tool definition so each annotation is a boolean and the tool has a string name.',
    }),
  );
  const seen = new Map<string, number>();
  for (const tool of tools) seen.set(tool.name, (seen.get(tool.name) ?? 0) + 1);
  for (const [name, count] of seen)
    if (count > 1)
      out.push(
        finding(
          'duplicate-tool',
          name,
          `${count} tools share this name; names must be unique within a server.`,
          {
            fix: 'Rename one of them.',
          },
        ),
      );
  for (const tool of tools) {
    if (!NAME_PATTERN.test(tool.name)) {
      const why =
        tool.name.length > 128
          ? `it has ${tool.name.length} characters (at most 128)`
          : 'it may only use A-Z, a-z, 0-9, _, - and .';
      out.push(finding('tool-name', tool.name, `The tool name breaks the spec's rules: ${why}.`));
    }
    if (tool.hints.readOnlyHint.value === true && tool.hints.destructiveHint.value === true)
      out.push(
        finding(
          'hint-contradiction',
          tool.name,
          'readOnlyHint is true and destructiveHint is true: clients ignore destructiveHint on a read tool, so it stays read, but this is almost always a mistake.',
          { fix: 'Set destructiveHint to false on a read-only tool, or readOnlyHint to false.' },
        ),
      );
  }
  return out;
}

/** Each enabled profile's findings, tool by tool, after the always-on rules. */
export function checkPolicies(
  tools: ClassifiedTool[],
  malformed: MalformedTool[],
  policies: readonly Policy[],
): Finding[] {
  const out = checkAlwaysOn(tools, malformed);
  for (const tool of tools) for (const policy of policies) out.push(...CHECKS[policy](tool));
  return out;
}
