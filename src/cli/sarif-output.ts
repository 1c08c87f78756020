import { readFile } from 'node:fs/promises';
import { relative, resolve, sep } from 'node:path';
import type { Report } from '../report/report.js';
import { renderSarif } from '../report/sarif.js';
import { VERSION } from '../version.js';

/**
 * `check --format sarif`: the findings as SARIF 2.1.0, as the action's sarif-file writes them, on
 * the class list's lines, for code scanning on any CI. The class list's path is written relative
 * to the working directory (the repository's root, where code scanning resolves it).
 */
export async function sarifOutput(report: Report): Promise<string> {
  const text = await readFile(report.classList, 'utf8').catch(() => undefined);
  const path = relative(process.cwd(), resolve(report.classList)).split(sep).join('/');
  return renderSarif(report, text, path.startsWith('../') ? report.classList : path, VERSION);
}
