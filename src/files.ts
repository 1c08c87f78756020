import { readFile, stat } from 'node:fs/promises';
import { parseSettings, type SettingsFile } from './clients/claude-code/claude-settings.js';
import { parseClassList, type ClassList } from './core/classlist.js';
import { loadJsonText, withJsonPositions } from './core/jsontext.js';
import { AuditError, getErrorMessage } from './errors.js';
import type { Report } from './report/report.js';
import type { FailedRun } from './report/json.js';
import { parseReport } from './report/reportfile.js';

/*
 * The files the audit reads (the class list, a report file, Claude Code settings files): the I/O
 * around the pure parsers of core/, report/ and clients/. Every write goes through confined.ts.
 */

/**
 * Reads a text file; `undefined` when it does not exist. Any other failure is an AuditError
 * "Could not read `what`: ...".
 */
async function readTextIfPresent(path: string, what: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new AuditError(`Could not read ${what}: ${(error as Error).message}.`);
  }
}

/** Reads a class list; `undefined` when the file does not exist yet. */
export async function readClassList(
  path: string,
): Promise<{ list: ClassList; text: string } | undefined> {
  const text = await readTextIfPresent(path, `the class list ${path}`);
  if (text === undefined) return undefined;
  return { list: await withJsonPositions(() => parseClassList(text, path)), text };
}

/** Reads OpenAI's hint justifications file as text; `undefined` when it does not exist. */
export function readJustificationsText(path: string): Promise<string | undefined> {
  return readTextIfPresent(path, `the hint justifications file ${path}`);
}

/** Reads and parses a Claude Code settings file; `undefined` when it does not exist. */
export async function readSettingsFile(path: string): Promise<SettingsFile | undefined> {
  const text = await readTextIfPresent(path, `the settings file ${path}`);
  if (text === undefined) return undefined;
  await loadJsonText();
  return parseSettings(text, path);
}

/**
 * The largest report file read: an audit's own report of 100,000 tools (the default maxTools) is
 * about 160 MiB. A report file is the PR run's artifact, so its size is the PR's to choose.
 */
export const MAX_REPORT_FILE_BYTES = 256 * 1024 * 1024;

/** Reads a JSON report of an earlier run (the report-file input); see parseReport. */
export async function readReportFile(path: string): Promise<Report | FailedRun> {
  const unreadable = (error: unknown) =>
    new AuditError(
      `Could not read the report ${path}: ${getErrorMessage(error)}.`,
      'Check the report-file input: the path of the downloaded artifact.',
    );
  const file = await stat(path).catch((error: unknown) => {
    throw unreadable(error);
  });
  if (!file.isFile() || file.size > MAX_REPORT_FILE_BYTES)
    throw new AuditError(
      `The report ${path} is ${file.isFile() ? `${Math.ceil(file.size / 1024 / 1024)} MiB, over the ${MAX_REPORT_FILE_BYTES / 1024 / 1024} MiB an audit's report can reach` : 'not a regular file'}.`,
      "Pass the JSON report the audit step wrote (its report output), as the PR run's artifact holds it.",
    );
  const json = await readFile(path, 'utf8').catch((error: unknown) => {
    throw unreadable(error);
  });
  return parseReport(json, path);
}
