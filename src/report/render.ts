import { renderJson } from './json.js';
import { renderMarkdown } from './markdown.js';
import type { Report } from './report.js';
import { renderText } from './text.js';

/*
 * The report in each output format. The renderers live one per format (text.ts, markdown.ts,
 * json.ts) over the shared tables (table.ts); this module picks one by name for the CLI's
 * --format.
 */

export type Format = 'text' | 'json' | 'markdown';

export function render(report: Report, format: Format): string {
  return format === 'json'
    ? renderJson(report)
    : format === 'markdown'
      ? renderMarkdown(report, Infinity)
      : renderText(report);
}
