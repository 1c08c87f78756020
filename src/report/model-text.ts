import type { ToolChange } from '../core/diff.js';
import { hintText } from '../core/text.js';
import { codeSpanSafe, linesSafe } from '../escape.js';
import { codeBlock } from './code-block.js';

/*
 * What the model reads, changed: per tool, the old and the new description as a line diff and
 * the input schema's changed paths, with the same tool's hint moves beside them, so a hint change
 * and a description change of one PR are read together. For the PR comment and the job summary.
 */

/** The section's heading, in the comment and the job summary. */
export const MODEL_TEXT_TITLE = 'What the model reads: description and schema changes';

/** Above this many cells of the line table, the diff is every old line then every new one. */
const MAX_DIFF_CELLS = 250_000;

/** Text inside a fenced block: control and invisible characters shown, no comment (no marker) opened. */
function blockSafe(text: string): string {
  return linesSafe(text, Infinity).replace(/<!--/g, '<\u2060!--');
}

/** The lines of `before` and `after` as a unified diff body: `-` gone, `+` new, ` ` kept. */
export function lineDiff(before: string, after: string): string[] {
  const [a, b] = [before.split(/\r?\n/), after.split(/\r?\n/)];
  if (a.length * b.length > MAX_DIFF_CELLS)
    return [...a.map((l) => `-${l}`), ...b.map((l) => `+${l}`)];
  // The longest common subsequence from each pair of suffixes, then one walk from the start.
  const width = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i * width + j] =
        a[i] === b[j]
          ? (lcs[(i + 1) * width + j + 1] as number) + 1
          : Math.max(lcs[(i + 1) * width + j] as number, lcs[i * width + j + 1] as number);
  const out: string[] = [];
  let [i, j] = [0, 0];
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push(` ${a[i++]}`);
      j++;
    } else if (
      i < a.length &&
      (j >= b.length || (lcs[(i + 1) * width + j] as number) >= (lcs[i * width + j + 1] as number))
    )
      out.push(`-${a[i++]}`);
    else out.push(`+${b[j++]}`);
  }
  return out;
}

/** One tool's block: its hint moves, its description diff, its schema's changed paths. */
function toolBlock(c: ToolChange): string[] {
  const lines = [`**\`${codeSpanSafe(c.tool, 64)}\`**`, ''];
  if (c.hints.length)
    lines.push(
      `- Hints: ${c.hints.map((m) => `${m.hint}: \`${hintText(m.before)}\` → \`${hintText(m.after)}\``).join(', ')}`,
    );
  const schema = c.inputSchemaChanged;
  if (schema) {
    const paths = schema.paths;
    lines.push(
      paths === undefined
        ? '- Input schema: changed (too large to keep in the class list, so only its digest is compared).'
        : `- Input schema: changed at ${paths.length ? paths.map((p) => `\`${codeSpanSafe(p, 200)}\``).join(', ') : 'no path it keeps'}${schema.more ? ` and ${schema.more} more` : ''}.`,
    );
  }
  const description = c.descriptionChanged;
  if (description) {
    lines.push('- Description, as the class list pins it (`-`) and as served now (`+`):', '');
    lines.push(
      ...codeBlock(blockSafe(lineDiff(description.before, description.after).join('\n')), 'diff'),
    );
  }
  lines.push('');
  return lines;
}

/**
 * The section for the changes whose description or input schema moved, within `budget`
 * characters: the tools that do not fit are counted, and the JSON report has them.
 */
export function modelTextSection(changes: ToolChange[], title: string, budget: number): string[] {
  const changed = changes.filter((c) => c.descriptionChanged || c.inputSchemaChanged);
  if (!changed.length) return [];
  const out = [title, ''];
  let used = title.length;
  for (const [index, change] of changed.entries()) {
    const block = toolBlock(change);
    const size = block.join('\n').length;
    if (used + size > budget) {
      out.push(
        `_…and ${changed.length - index} more tools whose description or schema changed: see the JSON report._`,
        '',
      );
      break;
    }
    out.push(...block);
    used += size;
  }
  return out;
}
