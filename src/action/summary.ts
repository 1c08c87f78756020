import { appendFileSync, statSync } from 'node:fs';
import { renderMarkdown } from '../report/markdown.js';
import type { Report } from '../report/report.js';

/** GitHub drops a step's whole job summary when it passes 1 MiB ("upload aborted"). */
export const SUMMARY_LIMIT = 1024 * 1024;

/** The report as the job summary shows it: room is kept for the notes after it, and an error. */
export function summaryOf(report: Report): string {
  return renderMarkdown(report, SUMMARY_LIMIT - 64 * 1024);
}

/**
 * Appends markdown to the job summary; false when the runner gave no summary file. What would
 * take the summary past GitHub's limit is cut, so that the rest still shows. Written here rather
 * than through @actions/core's `summary`: the cut needs the size of the very file appended to,
 * and `summary` keeps the first path it saw and creates no file.
 */
export function appendSummary(markdown: string): boolean {
  const file = process.env.GITHUB_STEP_SUMMARY;
  if (!file) return false;
  let text = markdown.endsWith('\n') ? markdown : `${markdown}\n`;
  let used = 0;
  try {
    used = statSync(file).size;
  } catch {
    // Not there yet: appending creates it.
  }
  const room = SUMMARY_LIMIT - used;
  if (Buffer.byteLength(text, 'utf8') > room) {
    const cut = "\n\n_Cut to fit GitHub's 1 MiB limit on a step's summary._\n";
    const keep = Math.max(0, room - Buffer.byteLength(cut, 'utf8'));
    // A multi-byte character cut in two decodes as U+FFFD: drop it.
    text = Buffer.from(text, 'utf8')
      .subarray(0, keep)
      .toString('utf8')
      .replace(/\uFFFD$/, '');
    text = keep > 0 ? `${text}${cut}` : '';
  }
  if (text) appendFileSync(file, text, 'utf8');
  return true;
}
